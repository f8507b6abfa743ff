import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';

/**
 * Ed25519 keys of an application, as Discord uses them for HTTP interactions: the public key is
 * published as `verify_key` (the 32 raw bytes in hex); the private key stays on the server and signs
 * each request over the timestamp followed by the raw body.
 */
export interface InteractionKeyPair {
  /** The raw 32-byte public key in lower-case hex (the application's `verify_key`). */
  readonly verifyKey: string;
  /** The private key as PKCS#8 PEM; never part of an API answer. */
  readonly signingKeyPem: string;
}

/** A fresh Ed25519 key pair for an application. */
export function newInteractionKeyPair(): InteractionKeyPair {
  const { privateKey } = generateKeyPairSync('ed25519');
  const signingKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { verifyKey: verifyKeyOf(signingKeyPem), signingKeyPem };
}

/** The hex raw public key belonging to a PKCS#8 PEM Ed25519 private key; throws if it is not one. */
export function verifyKeyOf(signingKeyPem: string): string {
  const jwk = createPublicKey(createPrivateKey(signingKeyPem)).export({ format: 'jwk' });
  if (jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') throw new TypeError('Not an Ed25519 key');
  return Buffer.from(jwk.x, 'base64url').toString('hex');
}

/** Discord's `X-Signature-Timestamp`: unix seconds as a decimal string. */
export function signatureTimestamp(nowMs: number): string {
  return String(Math.floor(nowMs / 1000));
}

/** Discord's `X-Signature-Ed25519`: the hex Ed25519 signature of `timestamp + body` (UTF-8). */
export function signInteraction(signingKeyPem: string, timestamp: string, body: string): string {
  return sign(null, Buffer.from(timestamp + body, 'utf8'), createPrivateKey(signingKeyPem)).toString('hex');
}
