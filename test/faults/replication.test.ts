import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import cassandra from 'cassandra-driver';
import { before, describe, it } from 'mocha';
import { bucketOf } from '../../src/store/cassandra/cassandraIds.js';
import { withCassandraClient } from '../support/cassandra.js';
import { startCluster, type ClusterNode, type TestCluster } from '../support/clusterHarness.js';
import { assertAllAckedOnceInOrder, type Acked, type MessageJson } from '../cluster/nodes/clusterFixtures.js';
import {
  assertFailedCleanly,
  cleanUpFaultSuite,
  describeAttempt,
  FAILURE_BOUND_MS,
  GuildUnderLoad,
} from './faultLoad.js';
import { cassandraScript, describeHealth, requireCassandraNodes, waitForHealthy } from './faultServices.js';

/** The Cassandra node this test stops (not the seed node 1, which the other suites' clients contact). */
const STOPPED = 2;
const CONTACT_POINTS = '127.0.0.1,127.0.0.2,127.0.0.3';
const { consistencies, responseErrorCodes } = cassandra.types;
const READ_TIMEOUT: number = responseErrorCodes.readTimeout;
/** How long a replica that just started may keep timing out reads (cold JIT, hints replaying) before the test fails. */
const WARM_UP_MS = 60_000;

describe('faults: replication factor 3 on three Cassandra nodes, one of them stopped', function () {
  this.timeout(30_000);
  let cluster: TestCluster | undefined;
  const load = new GuildUnderLoad();
  let nodeDown = false;
  let replication: Record<string, string> = {};
  let whileDown: { acked: Acked[]; stored: MessageJson[]; atAll: string; atQuorum: number } | undefined;
  let stored: MessageJson[] = [];
  let allAfter = 0;
  const at = { stopping: 0, stopped: 0, starting: 0, started: 0 };

  before(async function () {
    this.timeout(600_000);
    await requireCassandraNodes([1, 2, 3], 'bash scripts/cassandra.sh start 3');
    const startingNodes = performance.now();
    const started = await startCluster({
      nodes: 2,
      startTimeoutMs: 240_000,
      env: { CHORUS_CASSANDRA_CONTACT_POINTS: CONTACT_POINTS, CHORUS_CASSANDRA_RF: '3' },
    });
    cluster = started;
    console.log(
      `      2 Chorus nodes started in ${Math.round(performance.now() - startingNodes)} ms (keyspace created at RF 3)`,
    );
    await started.reporting(async () => {
      const nodes = started.nodes as [ClusterNode, ClusterNode];
      replication = await withCassandraClient(async (client) => {
        const query = 'SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?';
        const row = (await client.execute(query, [started.keyspace], { prepare: true })).first();
        return (row?.get('replication') ?? {}) as Record<string, string>;
      });
      await load.start(nodes, 'replicated', 'with every replica up');

      at.stopping = performance.now();
      nodeDown = true;
      await cassandraScript(['stop', String(STOPPED)], 60_000);
      at.stopped = performance.now();
      await load.waitForAcksSince(5, `with node ${STOPPED} down`, at.stopped, 30_000);
      const health = await waitForHealthy(nodes, 5_000);
      console.log(`      with node ${STOPPED} down: ${health.map(describeHealth).join('; ')}`);
      const acked = load.acked; // before the reads: clients keep posting
      whileDown = {
        acked,
        stored: await load.readMessages(nodes[0]),
        atAll: await countAt(started.keyspace, load.channelId, acked, consistencies.all).then(
          String,
          (error: unknown) => String(error),
        ),
        atQuorum: await countAt(started.keyspace, load.channelId, acked, consistencies.localQuorum),
      };

      at.starting = performance.now();
      await cassandraScript(['start', '3'], 200_000); // nodes 1 and 3 run: restarts node STOPPED only
      nodeDown = false;
      at.started = performance.now();
      await load.waitForAcksSince(3, `after node ${STOPPED} returned`, at.started, 30_000);
      await load.stop();
      stored = await load.readMessages(nodes[1]);
      allAfter = await countAtAllOnceWarm(started.keyspace, load.channelId, load.acked);
    });
  });
  // Whatever failed, node STOPPED runs again afterwards: other suites (and other engineers) use it.
  cleanUpFaultSuite(
    load,
    () => cluster,
    async () => {
      if (nodeDown) await cassandraScript(['start', '3'], 200_000);
    },
  );

  it('creates the keyspace with replication factor 3', () => {
    assert.equal(replication['replication_factor'], '3', JSON.stringify(replication));
  });

  it(`keeps taking writes and serving reads at LOCAL_QUORUM with node ${STOPPED} of 3 stopped`, () => {
    const acked = load.acked;
    const failed = load.attempts.filter((attempt) => attempt.status !== 200);
    console.log(
      `      cassandra.sh stop ${STOPPED} took ${Math.round(at.stopped - at.stopping)} ms; ` +
        `${acked.filter((m) => m.sentAt > at.stopped && m.sentAt < at.starting).length} writes acknowledged ` +
        `while it was down, ${failed.length} attempts failed in the whole run; a read at ALL then: ` +
        (whileDown?.atAll.slice(0, 100) ?? '-'),
    );
    assertFailedCleanly(load.attempts, FAILURE_BOUND_MS);
    const sentWhileDown = load.attemptsBetween(at.stopped, at.starting);
    assert.deepEqual(
      sentWhileDown.filter((attempt) => attempt.status !== 200).map(describeAttempt),
      [],
      'with one replica down every request succeeds',
    );
    const ackedBefore = whileDown?.acked ?? [];
    assertAllAckedOnceInOrder(whileDown?.stored ?? [], ackedBefore);
    assert.ok((whileDown?.atQuorum ?? 0) >= ackedBefore.length, 'a LOCAL_QUORUM read finds every acknowledged row');
    assert.match(whileDown?.atAll ?? '', /Not enough replicas available for query at consistency ALL/);
  });

  it(`brings node ${STOPPED} back; every acknowledged message is readable, in order, none duplicated`, () => {
    const acked = load.acked;
    console.log(
      `      cassandra.sh start 3 (node ${STOPPED} only) took ${Math.round(at.started - at.starting)} ms; ` +
        `${acked.length} acknowledged, ${stored.length} stored, ${allAfter} rows read at ALL`,
    );
    load.assertStoredAsAcknowledged(stored);
    assert.equal(allAfter, stored.length, 'every replica answers a read at ALL with every message');
  });
});

/** Rows of the acknowledged messages' partitions, read directly at `consistency` (rejects when it cannot be met). */
async function countAt(
  keyspace: string,
  channelId: string,
  acked: readonly { readonly id: string }[],
  consistency: number,
): Promise<number> {
  const buckets = new Set(acked.map((message) => bucketOf(BigInt(message.id))));
  return withCassandraClient(async (client) => {
    const ids: unknown[] = [];
    for (const bucket of buckets) {
      const query = `SELECT message_id FROM ${keyspace}.messages WHERE channel_id = ? AND bucket = ?`;
      // Every page: one execute answers at most the driver's fetchSize (5,000) rows.
      const result = await client.execute(query, [channelId, bucket], { prepare: true, consistency });
      for await (const row of result) ids.push(row.get('message_id'));
    }
    return ids.length;
  });
}

/**
 * `countAt` at ALL, retried while the server reports a read timeout: the restarted replica answers, but its first
 * reads can exceed read_request_timeout while it replays hints. Unavailable and every other error fail at once.
 */
async function countAtAllOnceWarm(
  keyspace: string,
  channelId: string,
  acked: readonly { readonly id: string }[],
): Promise<number> {
  const deadline = performance.now() + WARM_UP_MS;
  for (;;) {
    try {
      return await countAt(keyspace, channelId, acked, consistencies.all);
    } catch (error) {
      const timedOut = error instanceof cassandra.errors.ResponseError && error.code === READ_TIMEOUT;
      if (!timedOut || performance.now() > deadline) throw error;
      console.log(`      a read at ALL timed out on the restarted replica; reading again: ${String(error)}`);
    }
  }
}
