import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** What a token says about its holder, once its signature checks out. */
export interface TokenClaims {
  readonly userId: string;
  /** The user's token generation at issue time; a newer generation on the user revokes it. */
  readonly generation: number;
  readonly issuedAtMs: number;
}

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const unb64 = (text: string): string => Buffer.from(text, 'base64url').toString('utf8');

/**
 * Issues a Discord-layout token: base64(user id) . base64(generation:issued-at) . HMAC-SHA256. The
 * first part decodes to the user id as Discord clients expect; the HMAC makes it unforgeable.
 */
export function signToken(secret: string, claims: TokenClaims): string {
  const head = `${b64(claims.userId)}.${b64(`${claims.generation}:${claims.issuedAtMs}`)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/** The claims of a well-signed token, or undefined for anything else. */
export function verifyToken(secret: string, token: string): TokenClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [idPart, metaPart, signature] = parts as [string, string, string];
  const expected = createHmac('sha256', secret).update(`${idPart}.${metaPart}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const userId = unb64(idPart);
  const [generation, issuedAt] = unb64(metaPart).split(':').map(Number);
  if (!/^\d+$/.test(userId) || !Number.isInteger(generation) || !Number.isFinite(issuedAt)) return undefined;
  return { userId, generation: generation as number, issuedAtMs: issuedAt as number };
}

/** A stable digest of a token, for revocation lists (the token itself is never stored). */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('base64url').slice(0, 32);
}

/** Strips the optional `Bearer ` / `Bot ` prefix of an Authorization header value. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  const match = /^(?:bearer|bot)\s+(.+)$/i.exec(trimmed);
  const token = match ? match[1] : trimmed;
  return token === undefined || token === '' ? undefined : token;
}

/** The user id a token claims (unverified: only for routing the check to that user's actor). */
export function tokenUserId(token: string): string | undefined {
  const first = token.split('.')[0];
  if (!first) return undefined;
  const id = unb64(first);
  return /^\d{1,20}$/.test(id) ? id : undefined;
}
