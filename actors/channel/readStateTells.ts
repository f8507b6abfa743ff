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

/**
 * Each author's newest message not yet told to their User actor on another node. Only the newest matters (the
 * read state moves to it), so the channel tells it with its next flush: one remote tell per author and flush
 * instead of one per message. A node that crashes first loses at most that flush window of own-message reads.
 */
export class PendingAuthorReads {
  readonly #newest = new Map<string, MessageRecord>();

  note(record: MessageRecord): void {
    this.#newest.set(record.author_id, record);
  }

  /** Tells `userId`'s pending own message now, so a mention told after it is counted after it. */
  tellFirst(scope: ChannelScope, userId: string): void {
    const record = this.#newest.get(userId);
    if (record === undefined) return;
    this.#newest.delete(userId);
    tellReadState(scope, userId, record, true);
  }

  /** Tells every pending own message (the flush timer, and deactivation). */
  tellAll(scope: ChannelScope): void {
    for (const [userId, record] of this.#newest) tellReadState(scope, userId, record, true);
    this.#newest.clear();
  }
}

/**
 * The author's read state moves to the message they just sent (Discord's clients count it as read): told now
 * when their User actor lives on this node, else with the channel's next flush (see PendingAuthorReads).
 */
export function tellAuthorRead(scope: ChannelScope, record: MessageRecord): void {
  if (scope.ctx.livesHere('user', record.author_id)) tellReadState(scope, record.author_id, record, true);
  else scope.noteAuthorRead(record);
}

/**
 * Each user the message pings counts one more mention: one tell per user, nothing awaited, so a
 * message create costs no more than its pings. In a DM only recipients count (mentions are parsed
 * from text and may name anyone); in a guild the User actor checks it is in the guild. @everyone,
 * @here and role mentions are not counted per user (that would be a write per member). A user whose
 * own message is still pending is told that first: the mention is newer, and must not be reset by it.
 */
export function tellMentioned(scope: ChannelScope, record: MessageRecord): void {
  const { channel } = scope;
  for (const userId of new Set(record.mention_ids)) {
    if (userId === record.author_id) continue;
    if (channel.guild_id === null && !channel.recipient_ids.includes(userId)) continue;
    scope.authorReads.tellFirst(scope, userId);
    tellReadState(scope, userId, record, false);
  }
}
