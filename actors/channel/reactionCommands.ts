import type { ChannelReply, ReactionTarget } from '../../proto/gen/chorus/v1/channel.js';
import { BadRequestError } from '../../src/domain/errors.js';
import { compareSnowflakes } from '../../src/domain/snowflake.js';
import { requireCaller, requireGuildChannel, requirePermission } from './channelAccess.js';
import { withGuildId } from './channelEvents.js';
import { requireReactionUnblocked } from './dmBlocks.js';
import { EMPTY_REPLY, jsonReply, type ChannelScope } from './ChannelScope.js';
import { withJsonFields } from './messageJson.js';
import { publicUser } from './publicUser.js';
import {
  canonicalKey,
  distinctEmoji,
  emojiJson,
  emojiOfKey,
  MAX_REACTION_EMOJI,
  parseEmoji,
  reactionsOf,
  type EmojiRef,
} from './reactions.js';
import { clampLimit } from './pagination.js';

/** Users per page of GET .../reactions/{emoji} (Discord: default 25, at most 100). */
const USERS_DEFAULT_LIMIT = 25;

/** The emoji object of an event: the stored key's emoji, animated as the request said. */
function eventEmoji(key: string, requested: EmojiRef): ReturnType<typeof emojiJson> {
  return emojiJson({ ...emojiOfKey(key), animated: requested.animated });
}

/**
 * PUT .../reactions/{emoji}/@me: READ_MESSAGE_HISTORY, and ADD_REACTIONS when the emoji is new on the
 * message (as Discord: anyone may join an existing reaction); at most 20 emoji (30010); idempotent.
 * In a DM or group DM, a message whose author blocked the caller takes no reaction from them (90001).
 */
export async function addReaction(scope: ChannelScope, request: ReactionTarget): Promise<ChannelReply> {
  const access = await scope.access(request.caller);
  requirePermission(access, 'READ_MESSAGE_HISTORY');
  const record = await scope.message(request.messageId);
  await requireReactionUnblocked(scope.channel, record.author_id, access.userId, scope.stores.users);
  const emoji = parseEmoji(request.emoji);
  const existing = await scope.messages.listReactions(scope.channel.id, record.id);
  const same = reactionsOf(emoji, existing);
  if (same.some((reaction) => reaction.user_id === access.userId)) return EMPTY_REPLY;
  if (same.length === 0) {
    requirePermission(access, 'ADD_REACTIONS');
    if (distinctEmoji(existing) >= MAX_REACTION_EMOJI) {
      throw new BadRequestError(`Maximum number of reactions reached (${MAX_REACTION_EMOJI})`, 30_010);
    }
  }
  const key = canonicalKey(emoji, existing);
  if (access.memberJson === '') await scope.loadUsers([access.userId]);
  const user = scope.authors.resolve(access.userId, access.memberJson, () => scope.users.get(access.userId));
  scope.remember(user.user);
  await scope.messages.addReaction({
    channel_id: scope.channel.id,
    message_id: record.id,
    emoji: key,
    user_id: access.userId,
    created_at: new Date(scope.ctx.clock.now()).toISOString(),
    user_json: user.json,
  });
  const data = JSON.stringify(
    withGuildId(scope.channel, {
      user_id: access.userId,
      channel_id: scope.channel.id,
      message_id: record.id,
      emoji: eventEmoji(key, emoji),
      message_author_id: record.author_id,
      burst: false,
      burst_colors: [],
      type: 0,
    }),
  );
  const withMember = access.memberJson === '' ? data : withJsonFields(data, { member: access.memberJson });
  scope.emit('MESSAGE_REACTION_ADD', withMember);
  return EMPTY_REPLY;
}

/**
 * DELETE .../reactions/{emoji}/@me or .../{emoji}/{user_id}: removing another user's reaction needs
 * MANAGE_MESSAGES (and a guild channel); removing one that is not there is a no-op.
 */
export async function removeReaction(scope: ChannelScope, request: ReactionTarget): Promise<ChannelReply> {
  const caller = requireCaller(request.caller);
  const target = request.userId === '' ? caller.userId : request.userId;
  const access = await scope.access(caller);
  if (target !== caller.userId) {
    requireGuildChannel(scope.channel);
    requirePermission(access, 'MANAGE_MESSAGES');
  }
  const record = await scope.message(request.messageId);
  const emoji = parseEmoji(request.emoji);
  const existing = await scope.messages.listReactions(scope.channel.id, record.id);
  const reaction = reactionsOf(emoji, existing).find((candidate) => candidate.user_id === target);
  if (!reaction) return EMPTY_REPLY;
  await scope.messages.removeReactions(scope.channel.id, record.id, reaction.emoji, target);
  const data = withGuildId(scope.channel, {
    user_id: target,
    channel_id: scope.channel.id,
    message_id: record.id,
    emoji: eventEmoji(reaction.emoji, emoji),
    burst: false,
    type: 0,
  });
  scope.emit('MESSAGE_REACTION_REMOVE', JSON.stringify(data));
  return EMPTY_REPLY;
}

/** GET .../reactions/{emoji}: the users who reacted, by user id, after `after`, `limit` 1..100 (default 25). */
export async function listReactionUsers(scope: ChannelScope, request: ReactionTarget): Promise<ChannelReply> {
  const access = await scope.access(request.caller);
  requirePermission(access, 'READ_MESSAGE_HISTORY');
  const record = await scope.message(request.messageId);
  const emoji = parseEmoji(request.emoji);
  const existing = await scope.messages.listReactions(scope.channel.id, record.id);
  const limit = clampLimit(request.limit, USERS_DEFAULT_LIMIT);
  const page = reactionsOf(emoji, existing)
    .filter((reaction) => request.after === '' || compareSnowflakes(reaction.user_id, request.after) > 0)
    .sort((a, b) => compareSnowflakes(a.user_id, b.user_id))
    .slice(0, limit);
  await scope.loadUsers(
    page.filter((reaction) => reaction.user_json === undefined).map((reaction) => reaction.user_id),
  );
  const users = page.map((reaction) => publicUser(reaction.user_json ?? '') ?? scope.users.get(reaction.user_id));
  return jsonReply(JSON.stringify(users));
}

/**
 * DELETE .../reactions (every emoji) or .../reactions/{emoji} (one emoji): MANAGE_MESSAGES in a guild
 * channel; MESSAGE_REACTION_REMOVE_ALL or _REMOVE_EMOJI when something was removed.
 */
export async function removeAllReactions(scope: ChannelScope, request: ReactionTarget): Promise<ChannelReply> {
  requireCaller(request.caller);
  requireGuildChannel(scope.channel);
  const access = await scope.access(request.caller);
  requirePermission(access, 'MANAGE_MESSAGES');
  const record = await scope.message(request.messageId);
  const existing = await scope.messages.listReactions(scope.channel.id, record.id);
  const base = { channel_id: scope.channel.id, message_id: record.id };
  if (request.emoji === '') {
    await scope.messages.removeReactions(scope.channel.id, record.id);
    if (existing.length > 0)
      scope.emit('MESSAGE_REACTION_REMOVE_ALL', JSON.stringify(withGuildId(scope.channel, base)));
    return EMPTY_REPLY;
  }
  const emoji = parseEmoji(request.emoji);
  const keys = new Set(reactionsOf(emoji, existing).map((reaction) => reaction.emoji));
  for (const key of keys) await scope.messages.removeReactions(scope.channel.id, record.id, key);
  const [first] = keys;
  if (first !== undefined) {
    const data = withGuildId(scope.channel, { ...base, emoji: eventEmoji(first, emoji) });
    scope.emit('MESSAGE_REACTION_REMOVE_EMOJI', JSON.stringify(data));
  }
  return EMPTY_REPLY;
}
