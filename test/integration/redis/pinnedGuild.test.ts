import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { RedisPinTable } from '../../../cluster/placement/RedisPinTable.js';
import type { RunningNode } from '../../../src/node/RunningNode.js';
import { until } from '../../support/clusterNode.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { InProcessCluster } from '../../support/inProcessCluster.js';
import { registerUser, type TestUser } from '../../support/testServer.js';
import { createGuild, postMessage, type TestGuild } from '../gateway/gatewayFixtures.js';
import { deleteKeys, plainClient, runPrefix } from './redisTestKit.js';
import type { RedisConnection } from '../../../src/store/redis/connectRedis.js';

const INTENTS = (1 << 0) | (1 << 9) | (1 << 15); // GUILDS, GUILD_MESSAGES, MESSAGE_CONTENT

describe('pinning a hot guild to a chosen node (cluster-mode nodes in one process: Redis, gRPC)', function () {
  this.timeout(60_000);
  const prefix = runPrefix();
  let redis: RedisConnection;
  let cluster: InProcessCluster;
  let owner: TestUser;
  let guild: TestGuild;
  let watcher: GatewayClient | undefined;

  before(async function () {
    this.timeout(60_000);
    redis = await plainClient();
    // The run's keys under the suite's prefix, so the test reads the leases and writes the pins there.
    cluster = await InProcessCluster.start(2, { CHORUS_REDIS_PREFIX: prefix });
    const [a] = cluster.nodes as [RunningNode];
    owner = await registerUser(`${a.url}/api/v10`, 'owner');
    guild = await createGuild(`${a.url}/api/v10`, owner.token, 'hot guild');
  });
  after(async () => {
    await watcher?.drop();
    await cluster?.stop();
    // After the nodes left: their leave rewrites the view under the prefix.
    await deleteKeys(redis, prefix);
    redis.destroy();
  });

  /** The node whose activation holds the actor's lease (`nodeId|epoch` in Redis). */
  async function leaseOf(key: string): Promise<{ node: string; epoch: number }> {
    const value = (await redis.get(`${prefix}lease:${key}`)) ?? '|0';
    const bar = value.lastIndexOf('|');
    return { node: value.slice(0, bar), epoch: Number(value.slice(bar + 1)) };
  }

  /** Posts through `via`; resolves once the watcher got its MESSAGE_CREATE (the Guild fanned it out). */
  async function postAndSee(via: RunningNode, content: string): Promise<void> {
    const posted = await postMessage(`${via.url}/api/v10`, owner.token, guild.channelId, content);
    await watcher?.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === posted.id, { timeoutMs: 10_000 });
  }

  /** Resolves once every node places `key` on `node` (each installed the pins with its ring). */
  function placedEverywhere(key: string, node: RunningNode): Promise<true> {
    const colon = key.indexOf(':');
    return until(
      `every node to place ${key} on ${node.nodeId}`,
      () =>
        Promise.resolve(
          cluster.nodes.every((each) => each.system.ownerOf('guild', key.slice(colon + 1)) === node.nodeId)
            ? true
            : undefined,
        ),
      { timeoutMs: 10_000, everyMs: 20 },
    );
  }

  it('runs the guild on the pinned node under a new lease, back on its ring owner when unpinned; messages flow', async () => {
    const key = `guild:${guild.id}`;
    const [a] = cluster.nodes as [RunningNode];
    const ringOwner = cluster.nodes.find((node) => node.nodeId === a.system.ownerOf('guild', guild.id));
    const chosen = cluster.nodes.find((node) => node !== ringOwner);
    assert.ok(ringOwner && chosen);
    // A user session: READY carries the guild, and the session is subscribed to it from then on.
    ({ client: watcher } = await GatewayClient.identified(chosen.gatewayUrl, owner.token, { intents: INTENTS }));

    await postAndSee(ringOwner, 'before the pin');
    const unpinned = await leaseOf(key);
    assert.equal(unpinned.node, ringOwner.nodeId, 'the ring owner runs the guild');

    // Pinned by host:port, as an operator would (scripts/pin.ts): whichever incarnation is live takes it.
    const pins = new RedisPinTable(redis, prefix);
    await pins.pin(key, chosen.nodeId.slice(0, chosen.nodeId.lastIndexOf('@')));
    await placedEverywhere(key, chosen);
    await postAndSee(ringOwner, 'after the pin');
    const pinned = await leaseOf(key);
    assert.equal(pinned.node, chosen.nodeId, 'the pinned node runs the guild');
    assert.ok(pinned.epoch > unpinned.epoch, 'under a new lease: the old activation was handed off');

    await pins.unpin(key);
    await placedEverywhere(key, ringOwner);
    await postAndSee(chosen, 'after the unpin');
    const back = await leaseOf(key);
    assert.equal(back.node, ringOwner.nodeId, 'unpinned, the guild follows the ring again');
    assert.ok(back.epoch > pinned.epoch);
  });
});
