import { BadRequestError, ValidationError } from '../../src/domain/errors.js';

/** Relationship types as Discord numbers them. */
export const Relationship = { none: 0, friend: 1, blocked: 2, incoming: 3, outgoing: 4 } as const;

/** The outcome of one user's action: their new type toward the peer, and the peer's (undefined = untouched). */
export interface RelationshipChange {
  readonly mine: number;
  readonly peer: number | undefined;
}

/**
 * PUT /users/@me/relationships/{id} (and POST by tag, with `wanted` undefined): block (2), or send
 * or accept a friend request (1 or 4; undefined). `mine` is the actor's current type toward the
 * peer, `theirs` the peer's toward the actor. Throws when the peer blocked the actor.
 */
export function requestRelationship(
  mine: number | undefined,
  theirs: number | undefined,
  wanted: number | undefined,
): RelationshipChange {
  if (wanted === Relationship.blocked) {
    const peerLoses = theirs !== undefined && theirs !== Relationship.blocked;
    return { mine: Relationship.blocked, peer: peerLoses ? Relationship.none : undefined };
  }
  if (wanted === Relationship.incoming) {
    throw ValidationError.field('type', 'BASE_TYPE_CHOICES', 'An incoming request cannot be created, only received.');
  }
  if (theirs === Relationship.blocked) throw new BadRequestError('Incoming friend requests disabled.', 80_000);
  if (mine === Relationship.friend) return { mine: Relationship.friend, peer: undefined };
  if (mine === Relationship.incoming) return { mine: Relationship.friend, peer: Relationship.friend };
  return { mine: Relationship.outgoing, peer: Relationship.incoming };
}

/** DELETE /users/@me/relationships/{id}: unfriend, cancel, decline, or unblock (the peer keeps its block). */
export function removeRelationship(mine: number | undefined): RelationshipChange {
  const peerLoses = mine !== undefined && mine !== Relationship.blocked;
  return { mine: Relationship.none, peer: peerLoses ? Relationship.none : undefined };
}

/**
 * What a user does when the peer says "you are now `told` toward me": the type to keep, and a
 * type to tell back (when both sent requests at once they become friends). A blocked peer is ignored.
 */
export function applyPeerChange(
  mine: number | undefined,
  told: number,
): { keep: number; tellBack: number | undefined } {
  if (mine === Relationship.blocked) return { keep: Relationship.blocked, tellBack: undefined };
  if (told === Relationship.incoming && mine === Relationship.outgoing) {
    return { keep: Relationship.friend, tellBack: Relationship.friend };
  }
  return { keep: told, tellBack: undefined };
}
