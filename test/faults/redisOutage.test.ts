import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, afterEach, before, describe, it } from 'mocha';
import { Redis } from 'ioredis';
import {
  CLUSTER_TIMING,
  startCluster,
  type ClusterNode,
  type NodeHealth,
  type TestCluster,
} from '../support/clusterHarness.js';
import { registerUser, type TestUser } from '../support/testServer.js';
import { createGuild, joinGuild, type TestGuild } from '../integration/gateway/gatewayFixtures.js';
import { assertAllAckedOnceInOrder, readAllMessages, type MessageJson } from '../cluster/nodes/clusterFixtures.js';
import {
  assertFailedCleanly,
  clientOutageMs,
  FAILURE_BOUND_MS,
  failureWindow,
  LoadClient,
  strangers,
  type Attempt,
} from './faultLoad.js';
import { describeHealth, healthOf, PrivateRedis, waitForHealth, type HealthSample } from './faultServices.js';

/** The outage outlasts every lease and heartbeat, so each node must re-register and re-acquire, not just reconnect. */
const OUTAGE_AT_LEAST_MS = Number(CLUSTER_TIMING.CHORUS_LEASE_TTL_MS) + Number(CLUSTER_TIMING.CHORUS_MEMBER_TTL_MS);

describe('faults: Redis lost under load and restarted empty (a private redis-server)', function () {
  this.timeout(30_000);
  const redis = new PrivateRedis();
  let cluster: TestCluster | undefined;
  let owner: TestUser;
  let guild: TestGuild;
  let clients: LoadClient[] = [];
  let viewBefore = 0;
  let downHealth: HealthSample[] = [];
  let downAttempts: Attempt[] = [];
  let viewAfter: NodeHealth | undefined;
  let leaseKeys: string[] = [];
  let stored: MessageJson[] = [];
  const at = { killed: 0, detected: 0, restarted: 0, healthy: 0, rejoined: 0 };

  before(async function () {
    this.timeout(180_000);
    await redis.start();
    const started = await startCluster({ nodes: 3, env: { CHORUS_REDIS_URL: redis.url } });
    cluster = started;
    await started.reporting(async () => {
      const nodes = started.nodes as [ClusterNode, ClusterNode, ClusterNode];
      owner = await registerUser(nodes[0].api, 'owner');
      guild = await createGuild(nodes[1].api, owner.token, 'redis outage');
      const members = [owner, await registerUser(nodes[1].api, 'poster'), await registerUser(nodes[2].api, 'poster')];
      for (const member of members.slice(1)) await joinGuild(nodes[0].api, owner.token, guild.channelId, member.token);
      clients = members.map(
        (member, index) =>
          new LoadClient(`c${index + 1}`, member.token, guild.channelId, { nodes: () => nodes, start: index }),
      );
      for (const client of clients) client.start();
      await Promise.all(
        clients.map((c) => c.waitUntil('3 messages before the outage', (x) => x.acked.length >= 3, 20_000)),
      );
      viewBefore = (await healthOf(nodes[0])).report?.ringVersion ?? 0;

      at.killed = performance.now();
      await redis.kill();
      downHealth = await waitForHealth(
        nodes,
        '503 naming redis',
        (sample) => sample.status === 503 && sample.report?.checks['redis'] !== 'ok',
        10_000,
      );
      at.detected = performance.now();
      await Promise.all(
        clients.map((client) =>
          client.waitUntil(
            `2 failed attempts ${OUTAGE_AT_LEAST_MS} ms into the outage`,
            (c) => c.attemptsBetween(at.killed + OUTAGE_AT_LEAST_MS).filter((a) => a.status !== 200).length >= 2,
            20_000,
          ),
        ),
      );
      await redis.start(); // same port, empty: no membership, no leases, no epoch counter
      at.restarted = performance.now();
      downAttempts = clients.flatMap((client) => client.attemptsBetween(at.detected, at.restarted));
      await waitForHealth(nodes, '200', (sample) => sample.status === 200, 20_000);
      at.healthy = performance.now();
      viewAfter = await started.waitForMembers(nodes, 20_000); // every node: all three, one version
      at.rejoined = performance.now();
      await Promise.all(
        clients.map((client) =>
          client.waitUntil(
            '3 messages sent after Redis returned',
            (c) => c.acked.filter((message) => message.sentAt > at.restarted).length >= 3,
            30_000,
          ),
        ),
      );
      await Promise.all(clients.map((client) => client.stop()));
      leaseKeys = await keysOf(redis.url, `${started.redisPrefix}lease:*`);
      stored = await readAllMessages(nodes[2], owner.token, guild.channelId);
    });
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed' && cluster) console.log(`node logs:\n${cluster.logTails(25)}`);
  });
  after(async () => {
    await Promise.allSettled(clients.map((client) => client.stop()));
    await cluster?.after();
    await redis.kill();
  });

  it('reports redis in GET /health (503) and in its log on every node while Redis is down', () => {
    console.log(
      `      health 503 on every node ${Math.round(at.detected - at.killed)} ms after the kill: ` +
        downHealth.map(describeHealth).join('; '),
    );
    for (const sample of downHealth) assert.ok(sample.ms < 2_000, `health answered in ${sample.ms} ms`);
    for (const node of cluster?.nodes ?? []) {
      assert.ok(node.events('redis_unreachable').length > 0, `${node.name} logs redis_unreachable`);
    }
  });

  it(`refuses writes while Redis is down with a Discord-shaped 503 within ${FAILURE_BOUND_MS} ms, never a 500 or a hang`, () => {
    const window = failureWindow(downAttempts);
    console.log(
      `      ${window.failed} of ${downAttempts.length} attempts failed while Redis was down (slowest answer ` +
        `${window.maxMs} ms, e.g. ${downAttempts[0]?.body ?? '-'}); clients saw failures for ` +
        `${clientOutageMs(clients, at.killed)} ms`,
    );
    assert.ok(downAttempts.length >= clients.length * 2, 'clients kept posting during the outage');
    assert.deepEqual(
      downAttempts.filter((attempt) => attempt.status === 200).map((attempt) => attempt.content),
      [],
      'no write is acknowledged while the lease fence cannot be checked',
    );
    assertFailedCleanly(
      clients.flatMap((client) => client.attempts),
      FAILURE_BOUND_MS,
    );
  });

  it('recovers by itself once Redis returns empty: members re-registered under a newer view, leases re-acquired', () => {
    const nodeIds = (cluster?.nodes ?? []).map((node) => node.nodeId).sort();
    const ms = (from: number, to: number): number => Math.round(to - from);
    console.log(
      `      after redis-server restarted: health 200 on every node in ${ms(at.restarted, at.healthy)} ms, ` +
        `every node in one view of all three in ${ms(at.restarted, at.rejoined)} ms ` +
        `(v${viewBefore} -> v${viewAfter?.ringVersion ?? '?'}); ${leaseKeys.length} leases held`,
    );
    assert.deepEqual([...(viewAfter?.members ?? [])].sort(), nodeIds, 'every node re-registered');
    assert.ok((viewAfter?.ringVersion ?? 0) > viewBefore, 'the view version only grows, though Redis forgot it');
    const channel = `channel:${guild.channelId}`;
    const lost = (cluster?.nodes ?? [])
      .flatMap((node) => node.events('lease_lost'))
      .filter((e) => e['actor'] === channel);
    assert.ok(lost.length > 0, `the outage cost ${channel} its lease`);
    assert.ok(leaseKeys.includes(`${cluster?.redisPrefix ?? ''}lease:${channel}`), `${channel} holds a lease again`);
  });

  it('keeps every acknowledged message readable, in acknowledged order, none duplicated', () => {
    assertAllAckedOnceInOrder(
      stored,
      clients.flatMap((client) => client.acked),
    );
    assert.deepEqual(strangers(stored, clients), [], 'nothing is stored that no client sent');
  });
});

/** Keys of the private Redis matching `pattern`. */
async function keysOf(url: string, pattern: string): Promise<string[]> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    return await client.keys(pattern);
  } finally {
    client.disconnect();
  }
}
