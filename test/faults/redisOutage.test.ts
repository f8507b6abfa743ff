import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'mocha';
import { createClient } from 'redis';
import {
  CLUSTER_TIMING,
  startCluster,
  type ClusterNode,
  type NodeHealth,
  type TestCluster,
} from '../support/clusterHarness.js';
import type { MessageJson } from '../cluster/nodes/clusterFixtures.js';
import { cleanUpFaultSuite, FAILURE_BOUND_MS, GuildUnderLoad, type Attempt } from './faultLoad.js';
import {
  assertOutageReported,
  describeHealth,
  healthOf,
  PrivateRedis,
  waitForHealthy,
  waitForUnhealthy,
  type HealthSample,
} from './faultServices.js';

/** The outage outlasts every lease and heartbeat, so each node must re-register and re-acquire, not just reconnect. */
const OUTAGE_AT_LEAST_MS = Number(CLUSTER_TIMING.CHORUS_LEASE_TTL_MS) + Number(CLUSTER_TIMING.CHORUS_MEMBER_TTL_MS);

describe('faults: Redis lost under load and restarted empty (a private redis-server)', function () {
  this.timeout(30_000);
  const redis = new PrivateRedis();
  let cluster: TestCluster | undefined;
  const load = new GuildUnderLoad();
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
      await load.start(nodes, 'redis outage', 'before the outage');
      viewBefore = (await healthOf(nodes[0])).report?.ringVersion ?? 0;

      at.killed = performance.now();
      await redis.kill();
      downHealth = await waitForUnhealthy(nodes, 'redis', 10_000);
      at.detected = performance.now();
      const ttlsOutlastedAt = at.killed + OUTAGE_AT_LEAST_MS;
      await load.waitForFailuresSince(2, `${OUTAGE_AT_LEAST_MS} ms into the outage`, ttlsOutlastedAt, 20_000);
      await redis.start(); // same port, empty: no membership, no leases, no epoch counter
      at.restarted = performance.now();
      downAttempts = load.attemptsBetween(at.detected, at.restarted);
      await waitForHealthy(nodes, 20_000);
      at.healthy = performance.now();
      viewAfter = await started.waitForMembers(nodes, 20_000); // every node: all three, one version
      at.rejoined = performance.now();
      await load.waitForAcksSince(3, 'after Redis returned', at.restarted, 30_000);
      await load.stop();
      leaseKeys = await keysOf(redis.url, `${started.redisPrefix}lease:*`);
      stored = await load.readMessages(nodes[2]);
    });
  });
  cleanUpFaultSuite(load, () => cluster);
  after(() => redis.kill()); // once the cluster using it has stopped

  it('reports redis in GET /health (503) and in its log on every node while Redis is down', () => {
    console.log(
      `      health 503 on every node ${Math.round(at.detected - at.killed)} ms after the kill: ` +
        downHealth.map(describeHealth).join('; '),
    );
    assertOutageReported(downHealth, 2_000, cluster?.nodes ?? [], 'redis_unreachable');
  });

  it(`refuses writes while Redis is down with a Discord-shaped 503 within ${FAILURE_BOUND_MS} ms, never a 500 or a hang`, () => {
    load.assertWritesRefusedWhileDown(downAttempts, {
      service: 'Redis',
      outageFrom: at.killed,
      perClient: 2,
      noAckReason: 'no write is acknowledged while the lease fence cannot be checked',
    });
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
    const channel = `channel:${load.channelId}`;
    const lost = (cluster?.nodes ?? [])
      .flatMap((node) => node.events('lease_lost'))
      .filter((e) => e['actor'] === channel);
    assert.ok(lost.length > 0, `the outage cost ${channel} its lease`);
    assert.ok(leaseKeys.includes(`${cluster?.redisPrefix ?? ''}lease:${channel}`), `${channel} holds a lease again`);
  });

  it('keeps every acknowledged message readable, in acknowledged order, none duplicated', () => {
    load.assertStoredAsAcknowledged(stored);
  });

  it('starts a node after Redis lost its data with the cluster’s token secret: tokens issued before work on it', async function () {
    this.timeout(90_000);
    const node = cluster?.nodes[1];
    if (!cluster || !node) throw new Error('no cluster');
    await node.restart(); // a new incarnation: it reads the token secret and takes a generator id anew
    await cluster.waitForMembers(cluster.nodes, 30_000);
    const response = await fetch(`${node.url}/api/v10/users/@me`, { headers: { authorization: load.ownerToken } });
    assert.equal(response.status, 200, await response.text());
  });
});

/** Keys of the private Redis matching `pattern`. */
async function keysOf(url: string, pattern: string): Promise<string[]> {
  const client = createClient({ url, RESP: 2 });
  client.on('error', () => undefined); // a failing command fails the test; no listener would end the process
  try {
    await client.connect();
    return await client.keys(pattern);
  } finally {
    client.destroy();
  }
}
