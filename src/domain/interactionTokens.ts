import { createHmac, timingSafeEqual } from 'node:crypto';

/** What an interaction token names: the interaction, its application and channel, and when it expires. */
export interface InteractionClaims {
  readonly interactionId: string;
  readonly applicationId: string;
  readonly channelId: string;
  readonly expiresAtMs: number;
}

/** How long an interaction token works for followups and @original (Discord: 15 minutes). */
export const INTERACTION_TOKEN_TTL_MS = 15 * 60_000;

/**
 * Every interaction token starts with this text (base64 of "interaction:", as Discord's do), so the
 * webhook routes tell an interaction token from a webhook's by its first characters.
 */
export const INTERACTION_TOKEN_PREFIX = 'aW50ZXJhY3Rpb246';

const LONGEST_TOKEN = 256;
const CLAIMS = /^interaction:(\d{1,20}):(\d{1,20}):(\d{1,20}):(\d{1,15})$/;

/** The key interaction tokens are signed with: derived from the token key, so one is never a user token. */
export function interactionSecret(tokenSecret: string): string {
  return `${tokenSecret}:interaction`;
}

const macOf = (secret: string, head: string): string => createHmac('sha256', secret).update(head).digest('base64url');

/**
 * Issues an interaction token: base64url("interaction:{id}:{app}:{channel}:{expiry}") . HMAC-SHA256.
 * Any node verifies it with the shared secret alone (no storage); the HMAC makes it unguessable.
 */
export function signInteractionToken(tokenSecret: string, claims: InteractionClaims): string {
  const text = `interaction:${claims.interactionId}:${claims.applicationId}:${claims.channelId}:${claims.expiresAtMs}`;
  const head = Buffer.from(text, 'utf8').toString('base64url');
  return `${head}.${macOf(interactionSecret(tokenSecret), head)}`;
}

/** The claims of a well-signed, unexpired interaction token; undefined for anything else. */
export function verifyInteractionToken(
  tokenSecret: string,
  token: string,
  nowMs: number,
): InteractionClaims | undefined {
  if (token.length > LONGEST_TOKEN || !token.startsWith(INTERACTION_TOKEN_PREFIX)) return undefined;
  const [head, signature, ...rest] = token.split('.');
  if (head === undefined || signature === undefined || rest.length > 0) return undefined;
  const expected = Buffer.from(macOf(interactionSecret(tokenSecret), head));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const match = CLAIMS.exec(Buffer.from(head, 'base64url').toString('utf8'));
  if (!match) return undefined;
  const [, interactionId = '', applicationId = '', channelId = '', expiry = ''] = match;
  const claims = { interactionId, applicationId, channelId, expiresAtMs: Number(expiry) };
  return claims.expiresAtMs > nowMs ? claims : undefined;
}

/** True when a webhook route's token is shaped like an interaction token (verified separately). */
export function looksLikeInteractionToken(token: string | undefined): boolean {
  return token?.startsWith(INTERACTION_TOKEN_PREFIX) === true;
}
