import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding (what authenticator apps take as a TOTP secret). */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET.charAt((value >>> (bits - 5)) & 31);
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET.charAt((value << (5 - bits)) & 31);
  return out;
}

/** Decodes base32 (case-insensitive, spaces and padding ignored); undefined for any other character. */
export function base32Decode(text: string): Buffer | undefined {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = ALPHABET.indexOf(char);
    if (index < 0) return undefined;
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new random TOTP secret: 160 bits, base32 (RFC 4226 recommends at least 128). */
export function generateTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The RFC 6238 code (HMAC-SHA1, 30 s steps, 6 digits) of `secret` at `timeMs`. */
export function totpCode(secret: Buffer, timeMs: number, stepSeconds = 30, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(timeMs / 1000 / stepSeconds)));
  const mac = createHmac('sha1', secret).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** True when `code` is the code of the base32 `secret` at `timeMs`, or one step either side (clock skew). */
export function verifyTotp(secret: string, code: string, timeMs: number): boolean {
  const key = base32Decode(secret);
  const given = code.replace(/\s/g, '');
  if (!key || key.length === 0 || !/^\d{6}$/.test(given)) return false;
  let match = false;
  for (const drift of [-1, 0, 1]) {
    const expected = totpCode(key, timeMs + drift * 30_000);
    // Compare every window in constant time; never stop early on a match.
    match = timingSafeEqual(Buffer.from(expected), Buffer.from(given)) || match;
  }
  return match;
}

/** Ten fresh backup codes of 8 hex digits, as Discord issues them. */
export function generateBackupCodes(): { code: string; consumed: boolean }[] {
  return Array.from({ length: 10 }, () => ({ code: randomBytes(4).toString('hex'), consumed: false }));
}
