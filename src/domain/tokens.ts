import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** What a token says about its holder, once its signature checks out. */
export interface TokenClaims {
  readonly userId: string;
  /** The user's token generation at issue time; a newer generation on the user revokes it. */
  readonly generation: number;
  readonly issuedAtMs: number;
}

/** Claims of a verified token, with the key under which logout revokes exactly this token. */
export interface VerifiedToken extends TokenClaims {
  /** Derived from the verified claims alone, so no other spelling of the token can dodge a revocation. */
  readonly revocationKey: string;
}

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const unb64 = (text: string): string => Buffer.from(text, 'base64url').toString('utf8');

/** The only alphabet a token part may use: unpadded base64url. */
const PART = /^[A-Za-z0-9_-]+$/;
/** Longest token accepted; a real one is about 90 characters. */
const MAX_TOKEN_LENGTH = 256;

const headOf = (claims: TokenClaims): string =>
  `${b64(claims.userId)}.${b64(`${claims.generation}:${claims.issuedAtMs}`)}`;
const macOf = (secret: string, head: string): Buffer => createHmac('sha256', secret).update(head).digest();

/**
 * Issues a Discord-layout token: base64(user id) . base64(generation:issued-at) . HMAC-SHA256. The
 * first part decodes to the user id as Discord clients expect; the HMAC makes it unforgeable.
 */
export function signToken(secret: string, claims: TokenClaims): string {
  const head = headOf(claims);
  return `${head}.${macOf(secret, head).toString('base64url')}`;
}

/** How many verified tokens per secret are remembered (a few hundred bytes each). */
const VERIFIED_CACHE_SIZE = 4096;
/**
 * Tokens already verified, by secret: a request is verified at the edge and again by the User actor, and a
 * client sends the same token on every request, so the HMAC and digests are worked out once, not twice per
 * request. Only well-signed tokens enter (a forged one is recomputed and refused every time); whether a
 * token is revoked is not a property of its text and stays the caller's check.
 */
const verified = new Map<string, Map<string, VerifiedToken>>();

/**
 * The claims of a well-signed token in its one canonical spelling, or undefined for anything else.
 * Base64 decoders forgive padding, `+/` for `-_` and stray low bits in the last character; each such
 * variant of a token is refused here, so a logged-out token cannot come back as a look-alike.
 */
export function verifyToken(secret: string, token: string): VerifiedToken | undefined {
  let known = verified.get(secret);
  const hit = known?.get(token);
  if (hit) return hit;
  const claims = verifySignature(secret, token);
  if (claims) {
    if (!known) verified.set(secret, (known = new Map<string, VerifiedToken>()));
    // Oldest first out: a Map iterates in insertion order.
    if (known.size >= VERIFIED_CACHE_SIZE) known.delete(known.keys().next().value as string);
    known.set(token, Object.freeze(claims)); // shared by every caller from now on
  }
  return claims;
}

function verifySignature(secret: string, token: string): VerifiedToken | undefined {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => PART.test(part))) return undefined;
  const [idPart, metaPart, signature] = parts as [string, string, string];
  const expected = macOf(secret, `${idPart}.${metaPart}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const claims = claimsOf(idPart, metaPart);
  // Each part must re-encode to the very same text: this is what refuses every variant spelling.
  if (!claims || headOf(claims) !== `${idPart}.${metaPart}` || expected.toString('base64url') !== signature) {
    return undefined;
  }
  return new Verified(claims, token);
}

/**
 * A verified token. The revocation key is worked out on first read: most checks find no revoked token
 * and never read it (a SHA-256 per Identify saved). Private fields stay writable in a frozen object.
 */
class Verified implements VerifiedToken {
  readonly userId: string;
  readonly generation: number;
  readonly issuedAtMs: number;
  readonly #token: string;
  #revocationKey: string | undefined;

  constructor(claims: TokenClaims, token: string) {
    this.userId = claims.userId;
    this.generation = claims.generation;
    this.issuedAtMs = claims.issuedAtMs;
    this.#token = token;
  }

  get revocationKey(): string {
    return (this.#revocationKey ??= digestOf(this.#token));
  }
}

function claimsOf(idPart: string, metaPart: string): TokenClaims | undefined {
  const userId = unb64(idPart);
  const [generation, issuedAt, ...rest] = unb64(metaPart).split(':').map(Number);
  if (!/^\d{1,20}$/.test(userId) || rest.length > 0) return undefined;
  if (!Number.isSafeInteger(generation) || !Number.isSafeInteger(issuedAt)) return undefined;
  return { userId, generation: generation as number, issuedAtMs: issuedAt as number };
}

/**
 * The key logout stores to revoke one token: a digest of its canonical spelling, the only one
 * verifyToken accepts (so the key is a function of the verified claims). Earlier versions stored the
 * same digest, so tokens revoked before stay revoked.
 */
const digestOf = (canonicalToken: string): string =>
  createHash('sha256').update(canonicalToken).digest('base64url').slice(0, 32);

/** The key MFA login tickets are signed with: derived from the token key, so a ticket is never a token. */
export function ticketSecret(tokenSecret: string): string {
  return `${tokenSecret}:mfa-ticket`;
}

/** Strips the optional `Bearer ` / `Bot ` prefix of an Authorization header value. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  const match = /^(?:bearer|bot)\s+(.+)$/i.exec(trimmed);
  const token = match ? match[1] : trimmed;
  return token === undefined || token === '' ? undefined : token;
}
