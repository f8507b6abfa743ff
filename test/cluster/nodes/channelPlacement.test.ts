import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { RedisPinTable } from '../../../cluster/placement/RedisPinTable.js';
import { addressOf } from '../../../cluster/transport/GrpcClientPool.js';
import type { RedisConnection } from '../../../src/store/redis/connectRedis.js';
import { until, type ClusterNode } from '../../support/clusterHarness.js';
import { clusterPerSuite } from '../../support/clusterPerSuite.js';
import { registerUser, type TestUser } from '../../support/testServer.js';
import { createGuild, postMessage, type TestGuild } from '../../integration/gateway/gatewayFixtures.js';
import { parseMetrics, total } from '../../integration/metricsText.js';
import { plainClient } from '../../integration/redis/redisTestKit.js';

/** Remote calls of one kind (chorus_remote_calls_total by `call`), summed over every live node. */
interface RemoteCalls {
  readonly ask: number;
  readonly tell: number;
  readonly fanout: number;
}

const MESSAGES = 20;

/**
 * Placement that follows the data (issue 14 §2): a guild's channels run on the node of the guild, so a
 * message's Channel → Guild asks and tells stay in one process. Where an actor runs is read from its
 * lease in Redis (`nodeId|epoch`), which only the activation that runs it holds.
 */
describe("cluster: a guild's channels run on the guild's node", function () {
  this.timeout(120_000);
  let redis: RedisConnection;
  let author: TestUser;

  const cluster = clusterPerSuite(
    { nodes: 3 },
    {
      setUp: async () => {
        redis = await plainClient();
        author = await registerUser((cluster.nodes[0] as ClusterNode).api, 'placed');
      },
      tearDown: () => {
        redis?.destroy();
      },
    },
  );

  const nodeById = (nodeId: string): ClusterNode | undefined => cluster.nodes.find((node) => node.nodeId === nodeId);

  /** The node id whose activation holds the lease of `key` (empty when none does). */
  async function holderOf(key: string): Promise<string> {
    const value = (await redis.get(`${cluster.redisPrefix}lease:${key}`)) ?? '';
    return value.slice(0, value.lastIndexOf('|'));
  }

  async function remoteCalls(): Promise<RemoteCalls> {
    const samples = (
      await Promise.all(
        cluster.live().map(async (node) => parseMetrics(await (await fetch(`${node.url}/metrics`)).text())),
      )
    ).flat();
    const count = (call: string): number => total(samples, 'chorus_remote_calls_total', { call });
    return { ask: count('ask'), tell: count('tell'), fanout: count('fanout') };
  }

  /** The counters once they stopped moving (a tell is counted when its acknowledgement is back). */
  async function settledCalls(): Promise<RemoteCalls> {
    let last = await remoteCalls();
    return until(
      'the remote call counters to settle',
      async () => {
        const next = await remoteCalls();
        const same = next.ask === last.ask && next.tell === last.tell && next.fanout === last.fanout;
        last = next;
        return same ? next : undefined;
      },
      { timeoutMs: 10_000, everyMs: 150 },
    );
  }

  /**
   * A guild of `author` whose Guild and author's User run on one node, and whose text channel the
   * ring would place elsewhere if it hashed `channel:<id>` (as placement did before issue 14 §2).
   */
  async function guildBesideAuthor(): Promise<{ guild: TestGuild; home: ClusterNode }> {
    const home = await cluster.ownerOf(`user:${author.id}`);
    for (let attempt = 0; attempt < 40; attempt += 1) {
      const guild = await createGuild(home.api, author.token, `placed ${attempt}`);
      if ((await cluster.ownerOf(`guild:${guild.id}`)) !== home) continue;
      if ((await cluster.ownerOf(`channel:${guild.channelId}`)) === home) continue;
      return { guild, home };
    }
    throw new Error('no guild of 40 landed beside its author with its channel hashed elsewhere');
  }

  it('runs the channel beside its guild: no remote call per message entering there, only the entry ask elsewhere', async () => {
    const { guild, home } = await guildBesideAuthor();
    const perEntry: { entry: ClusterNode; calls: RemoteCalls; elapsedMs: number }[] = [];
    for (const entry of cluster.nodes) {
      await postMessage(entry.api, author.token, guild.channelId, `warm ${entry.name}`);
      const before = await settledCalls();
      const startedAt = Date.now();
      for (let n = 0; n < MESSAGES; n += 1) await postMessage(entry.api, author.token, guild.channelId, `hop ${n}`);
      const elapsedMs = Date.now() - startedAt;
      const after = await settledCalls();
      const calls = {
        ask: after.ask - before.ask,
        tell: after.tell - before.tell,
        fanout: after.fanout - before.fanout,
      };
      perEntry.push({ entry, calls, elapsedMs });
      const role = entry === home ? "the guild's node" : 'another node';
      console.log(
        `      remote calls per message entering at ${entry.name} (${role}): ` +
          `${((calls.ask + calls.tell + calls.fanout) / MESSAGES).toFixed(2)} ` +
          `(asks ${calls.ask}, tells ${calls.tell}, fan-outs ${calls.fanout} for ${MESSAGES} messages)`,
      );
    }

    const guildHolder = await holderOf(`guild:${guild.id}`);
    assert.equal(guildHolder, home.nodeId, 'the guild runs on its ring owner');
    assert.equal(await holderOf(`channel:${guild.channelId}`), guildHolder, 'the channel runs beside its guild');
    for (const { entry, calls, elapsedMs } of perEntry) {
      assert.equal(
        calls.tell + calls.fanout,
        0,
        `${entry.name}: the channel's tells to its Guild and author stay local`,
      );
      if (entry === home) assert.equal(calls.ask, 0, `${entry.name}: entering at the owner costs no remote call`);
      else {
        // One ask per message to the channel's node, plus the caller's authentication by its User
        // actor there, which the edge remembers for 1 s (CallerCache).
        const authentications = Math.ceil(elapsedMs / 1_000) + 1;
        assert.ok(calls.ask >= MESSAGES, `${entry.name}: each message is one ask to the channel's node`);
        assert.ok(calls.ask <= MESSAGES + authentications, `${entry.name}: ${calls.ask} asks for ${MESSAGES} messages`);
      }
    }
  });

  it("moves a pinned guild's channels with it, and messages still post", async () => {
    const guild = await createGuild((cluster.nodes[1] as ClusterNode).api, author.token, 'pinned');
    await postMessage((cluster.nodes[0] as ClusterNode).api, author.token, guild.channelId, 'before the pin');
    const ringOwner = await cluster.ownerOf(`guild:${guild.id}`);
    assert.equal(await holderOf(`channel:${guild.channelId}`), ringOwner.nodeId, 'unpinned: beside the ring owner');

    const chosen = cluster.nodes.find((node) => node !== ringOwner) as ClusterNode;
    const pins = new RedisPinTable(redis, cluster.redisPrefix);
    await pins.pin(`guild:${guild.id}`, addressOf(chosen.nodeId));
    try {
      // Each post goes wherever its edge places the guild now; once every node installed the pin,
      // the old owner has handed both actors off and the chosen node activates them.
      await until(
        'the guild and its channel to run on the pinned node',
        async () => {
          await postMessage(ringOwner.api, author.token, guild.channelId, 'while moving').catch(() => undefined);
          const holders = [await holderOf(`guild:${guild.id}`), await holderOf(`channel:${guild.channelId}`)];
          return holders.every((holder) => holder === chosen.nodeId) ? true : undefined;
        },
        { timeoutMs: 15_000, everyMs: 100 },
      );
      for (const entry of cluster.nodes) await postMessage(entry.api, author.token, guild.channelId, 'pinned');
      assert.equal(
        await holderOf(`channel:${guild.channelId}`),
        chosen.nodeId,
        'the channel stayed on the pinned node',
      );
    } finally {
      await pins.unpin(`guild:${guild.id}`);
    }
  });

  it("after the guild's node leaves, the guild and its channel run together on the new owner and messages post", async () => {
    const guild = await createGuild((cluster.nodes[0] as ClusterNode).api, author.token, 'survivor');
    await postMessage((cluster.nodes[0] as ClusterNode).api, author.token, guild.channelId, 'before the leave');
    const leaving = nodeById(await holderOf(`guild:${guild.id}`));
    assert.ok(leaving, 'the guild runs on a node of the cluster');
    await leaving.stop();
    const survivors = cluster.live();
    await cluster.waitForMembers(survivors);

    const entry = survivors[0] as ClusterNode;
    const posted = await postMessage(entry.api, author.token, guild.channelId, 'after the leave');
    assert.ok(posted.id);
    const newOwner = await cluster.ownerOf(`guild:${guild.id}`, entry);
    assert.notEqual(newOwner, leaving);
    assert.equal(await holderOf(`guild:${guild.id}`), newOwner.nodeId, 'the guild runs on its new owner');
    assert.equal(await holderOf(`channel:${guild.channelId}`), newOwner.nodeId, 'its channel runs beside it');
    for (const node of survivors) await postMessage(node.api, author.token, guild.channelId, `via ${node.name}`);
  });
});
