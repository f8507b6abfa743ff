import type { ChannelReply, RecipientTarget } from '../../proto/gen/chorus/v1/channel.js';
import { BadRequestError, MissingPermissionsError, UnknownEntityError } from '../../src/domain/errors.js';
import type { ChannelRecord } from '../runtime/ports/records.js';
import { requireCaller } from './channelAccess.js';
import { tellUser } from './channelEvents.js';
import { requireAddable } from './dmBlocks.js';
import { ChannelType, channelJson } from './channelJson.js';
import { EMPTY_REPLY, jsonReply, type ChannelScope } from './ChannelScope.js';
import type { PublicUser } from './publicUser.js';

/** A group DM holds at most this many users, its owner included (Discord 30004 beyond). */
const MAX_GROUP_DM_USERS = 10;

/**
 * PUT /channels/{id}/recipients/{user_id}: any recipient adds a user to a group DM (adding one who is
 * already in is a no-op), unless either of the two blocked the other (403 50007, as Discord). The added
 * user gets CHANNEL_CREATE, the others CHANNEL_RECIPIENT_ADD.
 */
export async function addRecipient(scope: ChannelScope, request: RecipientTarget): Promise<ChannelReply> {
  const callerId = await requireGroupRecipient(scope, request);
  const { channel } = scope;
  if (channel.recipient_ids.includes(request.userId)) return EMPTY_REPLY;
  if (channel.recipient_ids.length >= MAX_GROUP_DM_USERS) {
    throw new BadRequestError(`Maximum number of recipients reached (${MAX_GROUP_DM_USERS})`, 30_004);
  }
  const user = await scope.stores.users.get(request.userId);
  if (!user || user.deleted) throw new UnknownEntityError('user');
  await requireAddable(callerId, user, scope.stores.users);
  const others = channel.recipient_ids;
  await saveRecipients(scope, [...others, request.userId], channel.owner_id);
  await scope.loadUsers(scope.channel.recipient_ids);
  tellUser(scope.ctx, request.userId, {
    event: 'CHANNEL_CREATE',
    dataJson: JSON.stringify(asSeenBy(scope, request.userId)),
    intent: 0,
  });
  tellEach(scope, others, 'CHANNEL_RECIPIENT_ADD', recipientEvent(scope, request.userId));
  return EMPTY_REPLY;
}

/**
 * DELETE /channels/{id}/recipients/{user_id}, and DELETE /channels/{id} on a group DM (leaving): the
 * owner removes anyone, anyone removes themselves (403 50013 otherwise). A removed owner passes
 * ownership to the first remaining recipient. The removed user gets CHANNEL_DELETE, the others
 * CHANNEL_RECIPIENT_REMOVE (and CHANNEL_UPDATE when the owner changed). Replies with the channel as
 * the removed user saw it (DELETE /channels/{id} answers with it).
 */
export async function removeRecipient(scope: ChannelScope, request: RecipientTarget): Promise<ChannelReply> {
  const callerId = await requireGroupRecipient(scope, request);
  const { channel } = scope;
  if (callerId !== request.userId && callerId !== channel.owner_id) throw new MissingPermissionsError();
  if (!channel.recipient_ids.includes(request.userId)) throw new UnknownEntityError('user');
  await scope.loadUsers(channel.recipient_ids);
  const removedView = JSON.stringify(asSeenBy(scope, request.userId));
  const remaining = channel.recipient_ids.filter((id) => id !== request.userId);
  const ownerLeft = channel.owner_id === request.userId;
  await saveRecipients(scope, remaining, ownerLeft ? (remaining[0] ?? null) : channel.owner_id);
  tellUser(scope.ctx, request.userId, { event: 'CHANNEL_DELETE', dataJson: removedView, intent: 0 });
  tellEach(scope, remaining, 'CHANNEL_RECIPIENT_REMOVE', recipientEvent(scope, request.userId));
  if (ownerLeft) {
    for (const id of remaining) {
      tellUser(scope.ctx, id, { event: 'CHANNEL_UPDATE', dataJson: JSON.stringify(asSeenBy(scope, id)), intent: 0 });
    }
  }
  return jsonReply(removedView);
}

/**
 * The caller's id, once they are a recipient of this group DM. A 1:1 DM is refused with 50003 (Discord
 * converts it to a group; Chorus does not), a guild channel with 50024.
 */
async function requireGroupRecipient(scope: ChannelScope, request: RecipientTarget): Promise<string> {
  const { userId } = await scope.access(requireCaller(request.caller));
  if (scope.channel.guild_id !== null) {
    throw new BadRequestError('Cannot execute action on this channel type', 50_024);
  }
  if (scope.channel.type !== ChannelType.GROUP_DM) {
    throw new BadRequestError('Cannot execute action on a DM channel', 50_003);
  }
  return userId;
}

/**
 * Writes the new recipient list and owner into the stored record, keeping the fields flushed
 * separately (last_message_id, see ChannelScope.flush) as stored; the in-memory record keeps its
 * newer ones. The store updates its per-user index of private channels from recipient_ids.
 */
async function saveRecipients(scope: ChannelScope, recipientIds: string[], ownerId: string | null): Promise<void> {
  const stored = (await scope.stores.channels.get(scope.channel.id)) ?? scope.channel;
  const next: ChannelRecord = { ...stored, recipient_ids: recipientIds, owner_id: ownerId };
  await scope.stores.channels.save(next);
  scope.channel = { ...scope.channel, recipient_ids: recipientIds, owner_id: ownerId };
}

/** The channel object as one recipient sees it (the others as recipients). */
function asSeenBy(scope: ChannelScope, viewerId: string): Record<string, unknown> {
  return channelJson(scope.channel, viewerId, (id) => scope.users.get(id));
}

/** CHANNEL_RECIPIENT_ADD / _REMOVE data: the channel and the public user added or removed. */
function recipientEvent(scope: ChannelScope, userId: string): string {
  const user: PublicUser = scope.users.get(userId);
  return JSON.stringify({ channel_id: scope.channel.id, user });
}

/** The same event to each of these users (not gated by intents, as DM channel events). */
function tellEach(scope: ChannelScope, userIds: readonly string[], event: string, dataJson: string): void {
  for (const id of new Set(userIds)) tellUser(scope.ctx, id, { event, dataJson, intent: 0 });
}
