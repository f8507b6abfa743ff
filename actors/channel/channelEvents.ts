import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import type { ChannelRecord } from '../runtime/ports/records.js';
import { intentOf, type GatedEvent } from '../../src/domain/intents.js';
import { withJsonFields } from './messageJson.js';

/**
 * Sends an event to everyone who may see the channel: a guild channel's event goes to its Guild
 * (which filters sessions by VIEW_CHANNEL and intents), a DM's to each recipient's User actor, gated
 * by the intent the event needs there (src/domain/intents.ts). The payload is serialized once by the
 * caller; the same DispatchEvent goes to every target.
 */
export function emit(ctx: ActorContext, channel: ChannelRecord, event: GatedEvent, dataJson: string): void {
  if (channel.guild_id !== null) {
    const dispatch: DispatchEvent = { event, dataJson, intent: intentOf(event, 'guild') };
    ctx.tell('guild', channel.guild_id, {
      command: { $case: 'dispatch', dispatch: { event: dispatch, channelId: channel.id, userId: '', onlyUser: false } },
    });
    return;
  }
  const dispatch: DispatchEvent = { event, dataJson, intent: intentOf(event, 'dm') };
  for (const userId of new Set(channel.recipient_ids)) tellUser(ctx, userId, dispatch);
}

/** Sends an event to one user's sessions subscribed to a guild: for a sharded bot, the guild's shard only. */
export function tellGuildUser(ctx: ActorContext, guildId: string, userId: string, event: DispatchEvent): void {
  ctx.tell('guild', guildId, {
    command: { $case: 'dispatch', dispatch: { event, channelId: '', userId, onlyUser: true } },
  });
}

/** Sends an event to one user's sessions (DM events, the user's own read acks). */
export function tellUser(ctx: ActorContext, userId: string, event: DispatchEvent): void {
  ctx.tell('user', userId, { command: { $case: 'dispatch', dispatch: { event } } });
}

/** The event data of a guild channel carries `guild_id`; a DM's does not. */
export function withGuildId<T extends Record<string, unknown>>(
  channel: ChannelRecord,
  data: T,
): T & { guild_id?: string } {
  return channel.guild_id === null ? data : { ...data, guild_id: channel.guild_id };
}

/**
 * A MESSAGE_CREATE/UPDATE payload built from the serialized message: plus channel_type, and in guild
 * channels guild_id and the author's member object (`memberJson`, '' for none), without re-serializing.
 */
export function messageEventJson(channel: ChannelRecord, messageText: string, memberJson: string): string {
  const extra: Record<string, string> = { channel_type: String(channel.type) };
  if (channel.guild_id !== null) {
    extra['guild_id'] = JSON.stringify(channel.guild_id);
    if (memberJson !== '') extra['member'] = memberJson;
  }
  return withJsonFields(messageText, extra);
}
