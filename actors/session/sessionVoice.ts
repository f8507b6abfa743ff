import type { GuildReply } from '../../proto/gen/chorus/v1/guild.js';
import { isJsonObject, parseJson } from '../../src/domain/jsonValue.js';
import { issueVoiceToken, newVoiceNonce } from '../../src/domain/voiceToken.js';
import type { SessionPort } from './clientOps.js';

/** What a session needs to send VOICE_SERVER_UPDATE: the key voice tokens are signed with and where to connect. */
export interface VoiceServerOptions {
  readonly tokenSecret: string;
  /**
   * `host:port` of the voice service hosting a voice channel, without a scheme (Discord's endpoint): the node
   * the ring places the channel on, so every member of the channel lands on the same voice server.
   */
  endpointOf(channelId: string): string;
}

/** The endpoint when the node names no voice service (tests of actors alone): nothing listens there. */
export const noVoiceEndpoint = (): string => '127.0.0.1:0';

/**
 * Gateway op 4: asks the guild to join, move or leave (it checks CONNECT and the user limit, and tells
 * everyone else); then sends this session its own VOICE_STATE_UPDATE and, after a join or a move,
 * VOICE_SERVER_UPDATE with a new voice token. Lenient as Discord: bots send only guild_id, channel_id,
 * self_mute and self_deaf; a refused join sends nothing.
 */
export async function voiceStateUpdate(port: SessionPort, d: Record<string, unknown>): Promise<void> {
  const guildId = d['guild_id'];
  if (typeof guildId !== 'string' || !port.guildIds.has(guildId)) return;
  const channelId = typeof d['channel_id'] === 'string' ? d['channel_id'] : '';
  const reply: GuildReply = await port.ctx.ask('guild', guildId, {
    command: {
      $case: 'voiceStateChange',
      voiceStateChange: {
        userId: port.userId,
        sessionId: port.ctx.key,
        channelId,
        selfMute: d['self_mute'] === true,
        selfDeaf: d['self_deaf'] === true,
        selfVideo: d['self_video'] === true,
        ifChannelId: '',
      },
    },
  });
  const answer = reply.reply?.$case === 'json' ? parseJson(reply.reply.json.json) : undefined;
  if (!isJsonObject(answer) || !isJsonObject(answer['voice_state'])) return;
  // Its own state is never gated: discord.js's voice adapter waits for it.
  port.emit('VOICE_STATE_UPDATE', JSON.stringify(answer['voice_state']), 0);
  if (answer['channel_changed'] === true && channelId !== '') sendVoiceServer(port, guildId, channelId);
}

/** VOICE_SERVER_UPDATE to this session only, with a fresh single-use token for the channel. */
export function sendVoiceServer(port: SessionPort, guildId: string, channelId: string): void {
  const claims = { userId: port.userId, sessionId: port.ctx.key, guildId, channelId, nonce: newVoiceNonce() };
  const token = issueVoiceToken(port.voice.tokenSecret, claims, port.ctx.clock.now());
  const endpoint = port.voice.endpointOf(channelId);
  port.emit('VOICE_SERVER_UPDATE', JSON.stringify({ token, guild_id: guildId, endpoint }), 0);
}

/** The Guild moved this session's user to another channel: a new VOICE_SERVER_UPDATE for it. */
export const voiceServerAfterMove =
  (guildId: string, channelId: string) =>
  (port: SessionPort): Promise<void> => {
    if (port.guildIds.has(guildId)) sendVoiceServer(port, guildId, channelId);
    return Promise.resolve();
  };
