import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { before, describe, it } from 'mocha';
import { startCluster, until, type ClusterNode, type TestCluster } from '../support/clusterHarness.js';
import type { MessageJson } from '../cluster/nodes/clusterFixtures.js';
import { cleanUpFaultSuite, FAILURE_BOUND_MS, GuildUnderLoad, type Attempt } from './faultLoad.js';
import {
  assertOutageReported,
  cassandraScript,
  describeHealth,
  requireCassandraNodes,
  waitForHealthy,
  waitForUnhealthy,
  type HealthSample,
} from './faultServices.js';

/**
 * After `cassandra.sh start 1` returns (node 1 answers CQL), every Chorus node is healthy within this:
 * the driver retries a down node at least every 2 s (createCassandraStores), plus slack for 2 cores.
 */
const RECOVERY_TARGET_MS = 5_000;

describe('faults: Cassandra stopped and restarted under load (3 Chorus nodes, one Cassandra node)', function () {
  this.timeout(30_000);
  let cluster: TestCluster | undefined;
  const load = new GuildUnderLoad();
  let cassandraDown = false;
  let downHealth: HealthSample[] = [];
  let downAttempts: Attempt[] = [];
  let stored: MessageJson[] = [];
  const at = { stopping: 0, stopped: 0, unhealthy: 0, starting: 0, started: 0, healthy: 0, writing: 0, loggedUp: 0 };

  before(async function () {
    this.timeout(360_000);
    await requireCassandraNodes([1], 'bash scripts/services-up.sh (one node: bash scripts/cassandra.sh start 1)');
    const started = await startCluster({ nodes: 3 });
    cluster = started;
    await started.reporting(async () => {
      const nodes = started.nodes as [ClusterNode, ClusterNode, ClusterNode];
      await load.start(nodes, 'cassandra restart', 'before the stop');

      at.stopping = performance.now();
      cassandraDown = true;
      await cassandraScript(['stop'], 60_000); // SIGTERM: Cassandra drains, flushes and exits
      at.stopped = performance.now();
      downHealth = await waitForUnhealthy(nodes, 'cassandra', 20_000);
      at.unhealthy = performance.now();
      await load.waitForFailuresSince(3, 'while Cassandra is down', at.stopped, 30_000);
      at.starting = performance.now();
      downAttempts = load.attemptsBetween(at.stopped, at.starting);
      await cassandraScript(['start', '1'], 200_000);
      cassandraDown = false;
      at.started = performance.now();
      await waitForHealthy(nodes, 60_000);
      at.healthy = performance.now();
      await load.waitForAcksSince(3, 'after Cassandra returned', at.started, 60_000);
      // The driver marks the node up (and logs it) once it re-prepared the statements there.
      await until(
        'every node to log cassandra_host_up',
        () => Promise.resolve(nodes.every((node) => node.events('cassandra_host_up').length > 0) || undefined),
        { timeoutMs: 15_000, everyMs: 100 },
      );
      at.loggedUp = performance.now();
      at.writing = Math.min(...load.acked.filter((m) => m.sentAt > at.started).map((m) => m.ackedAt));
      await load.stop();
      stored = await load.readMessages(nodes[0]);
    });
  });
  // Whatever failed, node 1 answers again afterwards: other suites (and other engineers) use it.
  cleanUpFaultSuite(
    load,
    () => cluster,
    async () => {
      if (cassandraDown) await cassandraScript(['start', '1'], 200_000);
    },
  );

  it('reports cassandra in GET /health (503) and in its log on every node while Cassandra is down', () => {
    const ms = (from: number, to: number): number => Math.round(to - from);
    console.log(
      `      cassandra.sh stop took ${ms(at.stopping, at.stopped)} ms; health 503 on every node ` +
        `${ms(at.stopped, at.unhealthy)} ms later: ${downHealth.map(describeHealth).join('; ')}`,
    );
    assertOutageReported(downHealth, 5_000, cluster?.nodes ?? [], 'cassandra_host_down');
  });

  it(`answers writes while Cassandra is down with a Discord-shaped 503 within ${FAILURE_BOUND_MS} ms, never a 500 or a hang`, () => {
    load.assertWritesRefusedWhileDown(downAttempts, {
      service: 'Cassandra',
      outageFrom: at.stopping,
      perClient: 3,
      noAckReason: 'no write is acknowledged while Cassandra is down',
    });
  });

  it(`recovers by itself within ${RECOVERY_TARGET_MS} ms of Cassandra answering again: health 200, writes acknowledged`, () => {
    const healthyMs = Math.round(at.healthy - at.started);
    console.log(
      `      cassandra.sh start 1 took ${Math.round(at.started - at.starting)} ms; health 200 on every node ` +
        `${healthyMs} ms after it returned, first write acknowledged after ${Math.round(at.writing - at.started)} ms, ` +
        `cassandra_host_up logged by every node after ${Math.round(at.loggedUp - at.started)} ms`,
    );
    assert.ok(healthyMs < RECOVERY_TARGET_MS, `recovery took ${healthyMs} ms`);
  });

  it('keeps every acknowledged message readable, in acknowledged order, none duplicated', () => {
    load.assertStoredAsAcknowledged(stored);
  });
});
