import { issueVoiceToken, newVoiceNonce } from '../../src/domain/voiceToken.js';

/** Who a voice grant is for: one gateway session of a user, in one guild's voice channel. */
export interface VoiceGrantFor {
  readonly userId: string;
  readonly sessionId: string;
  readonly guildId: string;
  readonly channelId: string;
}

/** The token VOICE_SERVER_UPDATE would carry, and the voice Identify (op 0) that presents it. */
export interface VoiceGrant {
  readonly token: string;
  readonly sessionId: string;
  readonly identify: Record<string, unknown>;
}

/**
 * A voice grant as a node issues it, signed with `secret`: issued now unless `issuedAtMs` says when, valid
 * for the default lifetime unless `ttlMs`; the Identify names `max_dave_protocol_version` only when given.
 */
export function voiceGrant(
  secret: string,
  grantee: VoiceGrantFor,
  options: { readonly issuedAtMs?: number; readonly ttlMs?: number; readonly maxDaveVersion?: number } = {},
): VoiceGrant {
  const { userId, sessionId, guildId, channelId } = grantee;
  const claims = { userId, sessionId, guildId, channelId, nonce: newVoiceNonce() };
  const token = issueVoiceToken(secret, claims, options.issuedAtMs ?? Date.now(), options.ttlMs);
  const dave = options.maxDaveVersion === undefined ? {} : { max_dave_protocol_version: options.maxDaveVersion };
  return {
    token,
    sessionId,
    identify: { server_id: guildId, user_id: userId, session_id: sessionId, token, ...dave },
  };
}
