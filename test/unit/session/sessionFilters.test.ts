import assert from 'node:assert/strict';
import { allowsDispatch, hasIntentBit, isOnShard, shardOfGuild } from '../../../actors/session/sessionFilters.js';

/** A guild id whose creation timestamp (id >> 22) is `ms`. */
const guildAt = (ms: number): string => (BigInt(ms) << 22n).toString();

describe('sessionFilters', () => {
  describe('allowsDispatch', () => {
    it('always passes an ungated event (intent 0)', () => {
      assert.equal(allowsDispatch(0, 0), true);
    });

    it('passes an event whose intent bit the session holds', () => {
      assert.equal(allowsDispatch(1 << 9, 10), true);
    });

    it('drops an event whose intent bit the session lacks', () => {
      assert.equal(allowsDispatch(1 | (1 << 15), 10), false);
    });

    it('reads bits above 31 arithmetically', () => {
      assert.equal(hasIntentBit(2 ** 40, 40), true);
      assert.equal(hasIntentBit(2 ** 40, 8), false);
    });
  });

  describe('shards', () => {
    it('routes a guild to (id >> 22) % count', () => {
      assert.equal(shardOfGuild(guildAt(1_000_001), 2), 1);
      assert.equal(shardOfGuild(guildAt(1_000_002), 2), 0);
      assert.equal(shardOfGuild(guildAt(1_000_005), 3), 0);
      assert.equal(shardOfGuild(guildAt(1_000_006), 4), 2);
    });

    it('puts every guild on an unsharded or one-shard session', () => {
      assert.equal(isOnShard(guildAt(7), 0, 0), true);
      assert.equal(isOnShard(guildAt(7), 0, 1), true);
    });

    it('filters guilds of other shards out', () => {
      assert.equal(isOnShard(guildAt(1_000_001), 1, 2), true);
      assert.equal(isOnShard(guildAt(1_000_001), 0, 2), false);
    });
  });
});
