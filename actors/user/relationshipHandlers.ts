import { ActorKind } from '../runtime/ActorKind.js';
import type {
  PeerTarget,
  RelationshipChanged,
  UserBodyRequest,
  UserReply,
  UserRequest,
} from '../../proto/gen/chorus/v1/user.js';
import { BadRequestError, ForbiddenError, UnknownEntityError } from '../../src/domain/errors.js';
import type { UserRecord } from '../runtime/ports/records.js';
import {
  applyPeerChange,
  Relationship,
  removeRelationship,
  requestRelationship,
  type RelationshipChange,
} from './relationships.js';
import { publicUser } from './userJson.js';
import { callerOf, emptyReply, jsonReply, nextRecord, requireSelf, withoutKey, type UserTurn } from './userTurn.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { RelationshipPostSchema, RelationshipPutSchema } from '../../src/contract/index.js';
import { parseJson } from '../../src/domain/jsonValue.js';

function relationshipJson(peer: UserRecord, type: number): Record<string, unknown> {
  return { id: peer.id, type, nickname: null, user: publicUser(peer) };
}

/** GET /users/@me/relationships: UserRelationsResponse items. */
export async function listRelationships(turn: UserTurn, request: UserRequest): Promise<UserReply> {
  requireSelf(turn, request);
  const items: Record<string, unknown>[] = [];
  for (const [peerId, type] of Object.entries(turn.user.relationships)) {
    const peer = await turn.stores.users.get(peerId);
    if (peer) items.push(relationshipJson(peer, type));
  }
  return jsonReply(items);
}

/** PUT /users/@me/relationships/{id}: friend request, accept, or block. */
export async function putRelationship(turn: UserTurn, request: PeerTarget): Promise<UserReply> {
  const form = bodyOf(RelationshipPutSchema, request.body);
  const peer = await peerFor(turn, request, request.userId);
  await change(
    turn,
    peer,
    requestRelationship(turn.user.relationships[peer.id], peer.relationships[turn.user.id], form.type),
  );
  return emptyReply();
}

/** POST /users/@me/relationships: a friend request by username and discriminator. */
export async function addRelationshipByTag(turn: UserTurn, request: UserBodyRequest): Promise<UserReply> {
  const form = bodyOf(RelationshipPostSchema, request.body);
  requireSelf(turn, request);
  const found = await turn.stores.users.findByTag(form.username, form.discriminator);
  if (!found) throw new BadRequestError('No users with DiscordTag exist', 80_004);
  const peer = await peerFor(turn, request, found.id);
  await change(
    turn,
    peer,
    requestRelationship(turn.user.relationships[peer.id], peer.relationships[turn.user.id], undefined),
  );
  return emptyReply();
}

/** DELETE /users/@me/relationships/{id}: unfriend, cancel, decline or unblock; 204 even when there was none. */
export async function deleteRelationship(turn: UserTurn, request: PeerTarget): Promise<UserReply> {
  requireSelf(turn, request);
  const mine = turn.user.relationships[request.userId];
  if (mine === undefined) return emptyReply();
  const peer = await turn.stores.users.get(request.userId);
  if (!peer) {
    const next = nextRecord(turn.user);
    next.relationships = withoutKey(next.relationships, request.userId);
    await turn.commit(next);
    return emptyReply();
  }
  await change(turn, peer, removeRelationship(mine));
  return emptyReply();
}

/** User → User (tell): the peer changed its side; take the matching type and tell this user's sessions. */
export async function relationshipChanged(turn: UserTurn, told: RelationshipChanged): Promise<UserReply> {
  const before = turn.user.relationships[told.userId];
  const { keep, tellBack } = applyPeerChange(before, told.type);
  if (keep !== before && !(keep === Relationship.none && before === undefined)) {
    const next = nextRecord(turn.user);
    if (keep === Relationship.none) next.relationships = withoutKey(next.relationships, told.userId);
    else next.relationships[told.userId] = keep;
    await turn.commit(next);
    if (keep === Relationship.none) {
      turn.dispatch('RELATIONSHIP_REMOVE', { id: told.userId, type: before, nickname: null });
    } else {
      const user = told.userJson ? parseJson(told.userJson) : { id: told.userId };
      turn.dispatch('RELATIONSHIP_ADD', { id: told.userId, type: keep, nickname: null, user, should_notify: true });
    }
  }
  if (tellBack !== undefined) tellPeer(turn, told.userId, tellBack);
  return emptyReply();
}

/**
 * GET /users/{id}/relationships: friends this user and the caller have in common, as
 * UserRelationsResponse items (type 1, as they are friends of both).
 */
export async function mutualRelationships(turn: UserTurn, request: UserRequest): Promise<UserReply> {
  const caller = callerOf(request);
  const callerRecord = caller.userId === turn.user.id ? turn.user : await turn.stores.users.get(caller.userId);
  const theirs = callerRecord?.relationships ?? {};
  const mutual: Record<string, unknown>[] = [];
  for (const [peerId, type] of Object.entries(turn.user.relationships)) {
    if (type !== Relationship.friend || theirs[peerId] !== Relationship.friend || peerId === caller.userId) continue;
    const peer = await turn.stores.users.get(peerId);
    if (peer) mutual.push(relationshipJson(peer, Relationship.friend));
  }
  return jsonReply(mutual);
}

async function peerFor(
  turn: UserTurn,
  request: { caller?: UserRequest['caller'] },
  peerId: string,
): Promise<UserRecord> {
  const caller = requireSelf(turn, request);
  if (caller.bot) throw new ForbiddenError('Bots cannot use this endpoint', 20_001);
  if (peerId === turn.user.id) throw new BadRequestError('Cannot send a friend request to yourself.', 0);
  const peer = await turn.stores.users.get(peerId);
  if (!peer || peer.deleted) throw new UnknownEntityError('user');
  if (peer.bot) throw new BadRequestError('Bots cannot have friends.', 0);
  return peer;
}

async function change(turn: UserTurn, peer: UserRecord, outcome: RelationshipChange): Promise<void> {
  const before = turn.user.relationships[peer.id];
  if (outcome.mine !== before) {
    const next = nextRecord(turn.user);
    if (outcome.mine === Relationship.none) next.relationships = withoutKey(next.relationships, peer.id);
    else next.relationships[peer.id] = outcome.mine;
    await turn.commit(next);
    if ((before === Relationship.blocked) !== (outcome.mine === Relationship.blocked)) {
      await invalidateDmBlock(turn, peer.id);
    }
    if (outcome.mine === Relationship.none) {
      turn.dispatch('RELATIONSHIP_REMOVE', { id: peer.id, type: before, nickname: null });
    } else {
      turn.dispatch('RELATIONSHIP_ADD', { ...relationshipJson(peer, outcome.mine), should_notify: false });
    }
  }
  // The peer's side is its own actor's to write: told, never awaited, so two users acting on each
  // other at once cannot deadlock (see CONTRIBUTING: call directions).
  if (outcome.peer !== undefined) tellPeer(turn, peer.id, outcome.peer);
}

/**
 * A block or unblock was stored: the DM with the peer (if any) drops the block it cached (see
 * DmBlockCache). Asked, not told, so the first message after this reply meets the new state;
 * User → Channel never deadlocks (a Channel never waits on a User). A failed ask is logged: the
 * cached answer expires on its own.
 */
async function invalidateDmBlock(turn: UserTurn, peerId: string): Promise<void> {
  const dm = await turn.stores.channels.findDm(turn.user.id, peerId);
  if (!dm) return;
  try {
    await turn.ctx.ask(ActorKind.Channel, dm.id, {
      command: { $case: 'invalidateAccess', invalidateAccess: { version: '0', userId: '' } },
    });
  } catch (error) {
    turn.ctx.log.warn('dm_block_invalidate_failed', { channel: dm.id, err: (error as Error).message });
  }
}

function tellPeer(turn: UserTurn, peerId: string, type: number): void {
  turn.ctx.tell(ActorKind.User, peerId, {
    command: {
      $case: 'relationshipChanged',
      relationshipChanged: { userId: turn.user.id, type, userJson: JSON.stringify(publicUser(turn.user)) },
    },
  });
}
