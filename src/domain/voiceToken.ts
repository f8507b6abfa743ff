import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Who a voice token admits to which voice channel; the nonce makes each token unique so it can be used once. */
export interface VoiceTokenClaims {
  readonly userId: string;
  readonly sessionId: string;
  readonly guildId: string;
  readonly channelId: string;
  readonly nonce: string;
}

/** How long a voice token may wait before the voice gateway's Identify (Discord's are short-lived too). */
export const VOICE_TOKEN_TTL_MS = 5 * 60_000;

const LONGEST_TOKEN = 512;
const SNOWFLAKE = /^\d{1,20}$/;
// Session ids are hex in Chorus; nonces are base64url. Neither may hold the ':' that separates the claims.
const WORD = /^[A-Za-z0-9_-]{1,64}$/;

/** A fresh random nonce for {@link issueVoiceToken}. */
export function newVoiceNonce(): string {
  return randomBytes(12).toString('base64url');
}

/** The key voice tokens are signed with: derived from the token key, so a voice token is never a user token. */
function voiceSecret(tokenSecret: string): string {
  return `${tokenSecret}:voice`;
}

const macOf = (secret: string, head: string): string =>
  createHmac('sha256', voiceSecret(secret)).update(head).digest('base64url');

/**
 * Issues a voice token: base64url("voice:{user}:{session}:{guild}:{channel}:{nonce}:{expiry}") . HMAC-SHA256.
 * The voice service verifies it with the shared token secret alone; it enforces single use by the nonce.
 */
export function issueVoiceToken(
  secret: string,
  claims: VoiceTokenClaims,
  nowMs: number,
  ttlMs: number = VOICE_TOKEN_TTL_MS,
): string {
  const { userId, sessionId, guildId, channelId, nonce } = claims;
  for (const id of [userId, guildId, channelId])
    if (!SNOWFLAKE.test(id)) throw new RangeError(`not a snowflake: ${id}`);
  for (const word of [sessionId, nonce]) if (!WORD.test(word)) throw new RangeError(`not a token word: ${word}`);
  const text = `voice:${userId}:${sessionId}:${guildId}:${channelId}:${nonce}:${nowMs + ttlMs}`;
  const head = Buffer.from(text, 'utf8').toString('base64url');
  return `${head}.${macOf(secret, head)}`;
}

const CLAIMS = /^voice:(\d{1,20}):([A-Za-z0-9_-]{1,64}):(\d{1,20}):(\d{1,20}):([A-Za-z0-9_-]{1,64}):(\d{1,15})$/;

/** The claims of a well-signed, unexpired voice token; undefined for a forged, altered, foreign or expired one. */
export function verifyVoiceToken(secret: string, token: string, nowMs: number): VoiceTokenClaims | undefined {
  if (typeof token !== 'string' || token.length > LONGEST_TOKEN) return undefined;
  const [head, signature, ...rest] = token.split('.');
  if (head === undefined || signature === undefined || rest.length > 0) return undefined;
  const expected = Buffer.from(macOf(secret, head));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const match = CLAIMS.exec(Buffer.from(head, 'base64url').toString('utf8'));
  if (!match) return undefined;
  const [, userId = '', sessionId = '', guildId = '', channelId = '', nonce = '', expiry = ''] = match;
  if (Number(expiry) <= nowMs) return undefined;
  return { userId, sessionId, guildId, channelId, nonce };
}
