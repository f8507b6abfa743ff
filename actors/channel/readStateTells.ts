import type { ReadStateMessage } from '../../proto/gen/chorus/v1/user.js';
import type { MessageRecord } from '../runtime/ports/records.js';
import type { ChannelScope } from './ChannelScope.js';

/** Tells one user's actor that `record` counts for their read state (never waits: see acknowledge). */
function tellReadState(scope: ChannelScope, userId: string, record: MessageRecord, own: boolean): void {
  const message: ReadStateMessage = {
    channelId: scope.channel.id,
    guildId: scope.channel.guild_id ?? '',
    messageId: record.id,
    own,
  };
  scope.ctx.tell('user', userId, { command: { $case: 'readStateMessage', readStateMessage: message } });
}

/** The author's read state moves to the message they just sent (Discord's clients count it as read). */
export function tellAuthorRead(scope: ChannelScope, record: MessageRecord): void {
  tellReadState(scope, record.author_id, record, true);
}

/**
 * Each user the message pings counts one more mention: one tell per user, nothing awaited, so a
 * message create costs no more than its pings. In a DM only recipients count (mentions are parsed
 * from text and may name anyone); in a guild the User actor checks it is in the guild. @everyone,
 * @here and role mentions are not counted per user (that would be a write per member).
 */
export function tellMentioned(scope: ChannelScope, record: MessageRecord): void {
  const { channel } = scope;
  for (const userId of new Set(record.mention_ids)) {
    if (userId === record.author_id) continue;
    if (channel.guild_id === null && !channel.recipient_ids.includes(userId)) continue;
    tellReadState(scope, userId, record, false);
  }
}
