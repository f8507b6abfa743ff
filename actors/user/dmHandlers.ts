import type { UserBodyRequest, UserReply, UserRequest } from '../../proto/gen/chorus/v1/user.js';
import { BadRequestError, ForbiddenError, MissingAccessError, ValidationError } from '../../src/domain/errors.js';
import { ActorKind } from '../runtime/ActorKind.js';
import type { ChannelRecord, UserRecord } from '../runtime/ports/records.js';
import { PrivateChannelType, privateChannelJson } from './privateChannelJson.js';
import { Relationship } from './relationships.js';
import { callerOf, jsonReply, requireSelf, type UserTurn } from './userTurn.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { DmChannelCreateSchema } from '../../src/contract/index.js';

/** A group DM holds at most this many users, its owner included. */
const MAX_GROUP_DM_USERS = 10;

const invalidRecipients = (): BadRequestError => new BadRequestError('Invalid Recipient(s)', 50_033);

/** GET /users/@me/channels: the user's DMs and group DMs. */
export async function listDms(turn: UserTurn, request: UserRequest): Promise<UserReply> {
  requireSelf(turn, request);
  const channels = await turn.stores.channels.listPrivate(turn.user.id);
  const users = await loadUsers(
    turn,
    channels.flatMap((channel) => channel.recipient_ids),
  );
  return jsonReply(channels.map((channel) => privateChannelJson(channel, users, turn.user.id)));
}

/**
 * POST /users/@me/channels. One recipient: the 1:1 DM between caller and recipient, found or created.
 * The edge sends that to the actor of the lower of the two ids, so one actor serializes the
 * find-or-create for the pair and two users opening a DM at once get the same channel. Otherwise a
 * new group DM owned by the caller (sent to the caller's actor). CHANNEL_CREATE goes to the caller
 * (and to every member of a new group DM); a 1:1 recipient sees it with the first message.
 */
export async function openDm(turn: UserTurn, request: UserBodyRequest): Promise<UserReply> {
  const caller = callerOf(request);
  const form = bodyOf(DmChannelCreateSchema, request.body);
  const recipients = [...new Set(form.recipients)].filter((id) => id !== caller.userId);
  if (form.recipients.length === 1) {
    if (recipients.length === 0) throw invalidRecipients();
    return openDirect(turn, caller.userId, recipients[0] as string);
  }
  requireSelf(turn, request);
  return openGroup(turn, recipients, form.name);
}

async function openDirect(turn: UserTurn, callerId: string, recipientId: string): Promise<UserReply> {
  const self = turn.user.id;
  if (self !== callerId && self !== recipientId) throw new MissingAccessError();
  const users = await loadUsers(turn, [callerId, recipientId]);
  const other = users.get(self === callerId ? recipientId : callerId);
  if (!other || other.deleted) throw invalidRecipients();
  const existing = await turn.stores.channels.findDm(callerId, recipientId);
  if (existing) return jsonReply(privateChannelJson(existing, users, callerId));
  const channel = newPrivateChannel(turn, PrivateChannelType.dm, [callerId, recipientId], null, null);
  await turn.stores.channels.save(channel);
  dispatchTo(turn, callerId, 'CHANNEL_CREATE', privateChannelJson(channel, users, callerId));
  return jsonReply(privateChannelJson(channel, users, callerId));
}

async function openGroup(turn: UserTurn, recipients: readonly string[], name: string | undefined): Promise<UserReply> {
  if (recipients.length + 1 > MAX_GROUP_DM_USERS) {
    throw ValidationError.field(
      'recipients',
      'BASE_TYPE_MAX_LENGTH',
      `Must be ${MAX_GROUP_DM_USERS - 1} or fewer in length.`,
    );
  }
  const ownerId = turn.user.id;
  const users = await loadUsers(turn, recipients);
  if (recipients.some((id) => !users.get(id) || users.get(id)?.deleted)) throw invalidRecipients();
  // No group with someone the owner blocked, or who blocked the owner (Discord answers as for a DM).
  const blocked = (id: string): boolean =>
    turn.user.relationships[id] === Relationship.blocked ||
    users.get(id)?.relationships[ownerId] === Relationship.blocked;
  if (recipients.some(blocked)) throw new ForbiddenError('Cannot send messages to this user', 50_007);
  users.set(ownerId, turn.user);
  const channel = newPrivateChannel(
    turn,
    PrivateChannelType.groupDm,
    [ownerId, ...recipients],
    name?.trim() || null,
    ownerId,
  );
  await turn.stores.channels.save(channel);
  for (const memberId of channel.recipient_ids) {
    dispatchTo(turn, memberId, 'CHANNEL_CREATE', privateChannelJson(channel, users, memberId));
  }
  return jsonReply(privateChannelJson(channel, users, ownerId));
}

function newPrivateChannel(
  turn: UserTurn,
  type: number,
  recipientIds: string[],
  name: string | null,
  ownerId: string | null,
): ChannelRecord {
  return {
    id: turn.ctx.ids.next(),
    guild_id: null,
    type,
    name,
    position: 0,
    parent_id: null,
    permission_overwrites: [],
    recipient_ids: recipientIds,
    owner_id: ownerId,
    last_message_id: null,
    last_pin_timestamp: null,
    fields: { flags: 0, icon: null },
    created_at: new Date(turn.ctx.clock.now()).toISOString(),
  };
}

/** An event for one user's sessions: straight to ours, told to another user's actor. */
function dispatchTo(turn: UserTurn, userId: string, event: string, data: unknown): void {
  if (userId === turn.user.id) {
    turn.dispatch(event, data);
    return;
  }
  turn.ctx.tell(ActorKind.User, userId, {
    command: { $case: 'dispatch', dispatch: { event: { event, dataJson: JSON.stringify(data), intent: 0 } } },
  });
}

/** The records of the given users (this actor's own from memory); unknown ids are absent. */
async function loadUsers(turn: UserTurn, ids: readonly string[]): Promise<Map<string, UserRecord>> {
  const users = new Map<string, UserRecord>([[turn.user.id, turn.user]]);
  for (const id of new Set(ids)) {
    if (users.has(id)) continue;
    const user = await turn.stores.users.get(id);
    if (user) users.set(id, user);
  }
  return users;
}
