import assert from 'node:assert/strict';
import type { AppError } from '../../../src/domain/errors.js';
import {
  applyPeerChange,
  Relationship,
  removeRelationship,
  requestRelationship,
} from '../../../actors/user/relationships.js';

const { none, friend, blocked, incoming, outgoing } = Relationship;

describe('relationships', () => {
  describe('requestRelationship', () => {
    it('sends a request when there is none', () => {
      assert.deepEqual(requestRelationship(undefined, undefined, undefined), { mine: outgoing, peer: incoming });
    });

    it('accepts an incoming request', () => {
      assert.deepEqual(requestRelationship(incoming, outgoing, friend), { mine: friend, peer: friend });
    });

    it('leaves friends as they are', () => {
      assert.deepEqual(requestRelationship(friend, friend, undefined), { mine: friend, peer: undefined });
    });

    it('blocks, removing whatever the peer had', () => {
      assert.deepEqual(requestRelationship(friend, friend, blocked), { mine: blocked, peer: none });
    });

    it('blocks without touching a peer that blocked first', () => {
      assert.deepEqual(requestRelationship(undefined, blocked, blocked), { mine: blocked, peer: undefined });
    });

    it('refuses a request to a peer that blocked the user', () => {
      assert.throws(
        () => requestRelationship(undefined, blocked, undefined),
        (error: AppError) => error.discordCode === 80_000,
      );
    });

    it('refuses to create an incoming request', () => {
      assert.throws(
        () => requestRelationship(undefined, undefined, incoming),
        (error: AppError) => error.discordCode === 50_035,
      );
    });
  });

  describe('removeRelationship', () => {
    it('unfriends on both sides', () => {
      assert.deepEqual(removeRelationship(friend), { mine: none, peer: none });
    });

    it('unblocks without touching the peer', () => {
      assert.deepEqual(removeRelationship(blocked), { mine: none, peer: undefined });
    });
  });

  describe('applyPeerChange', () => {
    it('takes the type the peer sets', () => {
      assert.deepEqual(applyPeerChange(undefined, incoming), { keep: incoming, tellBack: undefined });
    });

    it('makes crossed requests a friendship on both sides', () => {
      assert.deepEqual(applyPeerChange(outgoing, incoming), { keep: friend, tellBack: friend });
    });

    it('ignores a peer the user has blocked', () => {
      assert.deepEqual(applyPeerChange(blocked, incoming), { keep: blocked, tellBack: undefined });
      assert.deepEqual(applyPeerChange(blocked, none), { keep: blocked, tellBack: undefined });
    });
  });
});
