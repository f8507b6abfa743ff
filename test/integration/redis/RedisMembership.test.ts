import assert from 'node:assert/strict';
import type { MemberInfo, MembershipOptions, MembershipView } from '../../../cluster/membership/Membership.js';
import { RedisMembership, RedisMembershipTable } from '../../../cluster/membership/RedisMembership.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { connectRedis, type RedisConnection } from '../../../src/store/redis/connectRedis.js';
import { aMember, FAST, membershipContract, viewWhere } from '../../contract/membershipContract.js';
import { deleteKeys, elapseKeys, plainClient, REDIS_URL, runPrefix } from './redisTestKit.js';

const silent = createLogger('silent');

describe('RedisMembership', () => {
  const run = runPrefix();
  let redis: RedisConnection;
  let tests = 0;
  const clients: RedisConnection[] = [];
  const nodes: RedisMembership[] = [];

  before(async () => {
    redis = await plainClient();
  });

  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((node) => node.stop()));
    for (const client of clients.splice(0)) client.destroy();
  });

  after(async () => {
    await deleteKeys(redis, run);
    redis.destroy();
  });

  // Each test gets keys of its own under the run's prefix, so expiries of one never reach the next.
  membershipContract(() => {
    const prefix = `${run}${(tests += 1)}:`;
    return Promise.resolve({
      table: () => new RedisMembershipTable(redis, prefix),
      elapse: (ms: number) => elapseKeys(redis, `${prefix}membership:member:*`, ms),
    });
  });

  /** A node with a connection of its own, as a separate process would have. */
  async function startNode(
    prefix: string,
    self: MemberInfo,
    timing: MembershipOptions = FAST,
  ): Promise<{ node: RedisMembership; client: RedisConnection }> {
    const client = await connectRedis(REDIS_URL, silent, { name: self.nodeId, commandTimeoutMs: timing.opTimeoutMs });
    clients.push(client);
    const node = new RedisMembership(client, { keyPrefix: prefix, ...timing }, silent);
    nodes.push(node);
    await node.start(self);
    return { node, client };
  }

  describe('three nodes, each on its own connection', () => {
    it('agree on the view, drop a node whose connection dies, and take it back when it reconnects', async () => {
      const prefix = `${run}${(tests += 1)}:`;
      const selves = [aMember(7001), aMember(7002), aMember(7003)];
      const [a, b, c] = [
        await startNode(prefix, selves[0]!),
        await startNode(prefix, selves[1]!),
        await startNode(prefix, selves[2]!),
      ];
      const ids = selves.map((self) => self.nodeId);
      const full = (view: MembershipView): boolean => ids.every((id) => view.members.includes(id));
      const joined = await Promise.all(
        [a, b, c].map(({ node }, index) => viewWhere(node, full, `all three at node ${index}`)),
      );
      const top = Math.max(...joined.map((view) => view.version));
      for (const { node } of [a, b, c])
        await viewWhere(node, (view) => view.version === top, `version ${top} everywhere`);

      const cutAt = performance.now();
      c.client.destroy(); // the process is gone as far as Redis can tell
      const cId = selves[2]!.nodeId;
      const dropped = await Promise.all(
        [a, b].map(({ node }) => viewWhere(node, (view) => !view.members.includes(cId), `the others to drop ${cId}`)),
      );
      const noticedMs = performance.now() - cutAt;
      assert.ok(dropped.every((view) => view.version > top));
      assert.ok(
        noticedMs < FAST.ttlMs + FAST.refreshMs + FAST.heartbeatMs + 250,
        `noticed after ${Math.round(noticedMs)} ms`,
      );
      assert.equal(c.node.healthy(), false);
      assert.deepEqual(c.node.current().members, joined[2]!.members, 'the cut node keeps its last view');

      await c.client.connect();
      const back = await viewWhere(a.node, (view) => view.members.includes(cId), `${cId} to rejoin after reconnecting`);
      // The cut node kept its old view (which had everyone); it has caught up once it reaches a's version.
      const caughtUp = await viewWhere(c.node, (view) => view.version >= back.version, `${cId} to catch up`);
      assert.ok(full(caughtUp));
      assert.equal(c.node.healthy(), true);
    });

    it('keeps the version growing when Redis loses every membership key', async () => {
      const prefix = `${run}${(tests += 1)}:`;
      const [a, b] = [await startNode(prefix, aMember(7011)), await startNode(prefix, aMember(7012))];
      const before = await viewWhere(a.node, (view) => view.members.length === 2, 'both members');
      await deleteKeys(redis, prefix);
      const after = await viewWhere(
        b.node,
        (view) => view.version > before.version && view.members.length === 2,
        'a view above the lost version with both members',
      );
      assert.ok(after.version > before.version);
      assert.ok(Number(await redis.get(`${prefix}membership:view:version`)) > before.version);
    });
  });

  describe('with the default timing (heartbeat 1 s, ttl 3 s, refresh 1 s)', () => {
    it('drops a crashed node from every other view within ttl + refresh + heartbeat', async () => {
      const prefix = `${run}${(tests += 1)}:`;
      const timing = { heartbeatMs: 1_000, ttlMs: 3_000, refreshMs: 1_000, opTimeoutMs: 1_000 };
      const a = await startNode(prefix, aMember(7021), timing);
      const b = await startNode(prefix, aMember(7022), timing);
      const bId = b.node.current().members.find((id) => id.includes(':7022@'))!;
      await viewWhere(a.node, (view) => view.members.includes(bId), 'b to join', 3_000);
      const cutAt = performance.now();
      b.client.destroy();
      await viewWhere(a.node, (view) => !view.members.includes(bId), `a to drop ${bId}`, 6_000);
      const noticedMs = performance.now() - cutAt;
      console.log(`      (a crashed node left the view after ${Math.round(noticedMs)} ms)`);
      assert.ok(noticedMs <= 5_000, `dropped after ${Math.round(noticedMs)} ms`);
    });
  });
});
