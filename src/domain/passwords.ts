import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, cost: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { N: cost, r: 8, p: 1, maxmem: 256 * cost * 8 }, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
}

/** Hashes a password with scrypt (a memory-hard KDF) and a random salt: `scrypt$N$salt$key`. */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return `scrypt$${cost}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** True when `password` matches a hash made by hashPassword (whatever cost it was made with). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, costText, saltText, keyText] = stored.split('$');
  if (scheme !== 'scrypt' || !costText || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, 'base64url');
  const key = await derive(password, Buffer.from(saltText, 'base64url'), Number(costText));
  return key.length === expected.length && timingSafeEqual(key, expected);
}
