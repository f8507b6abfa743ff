import assert from 'node:assert/strict';
import { isOnShard, shardOfGuild } from '../../../actors/session/sessionFilters.js';

/** A guild id whose creation timestamp (id >> 22) is `ms`. */
const guildAt = (ms: number): string => (BigInt(ms) << 22n).toString();

describe('sessionFilters', () => {
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
