import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import cassandra from 'cassandra-driver';
import { after, afterEach, before, describe, it } from 'mocha';
import { bucketOf } from '../../src/store/cassandra/cassandraIds.js';
import { withCassandraClient } from '../support/cassandra.js';
import { startCluster, type ClusterNode, type TestCluster } from '../support/clusterHarness.js';
import { registerUser, type TestUser } from '../support/testServer.js';
import { createGuild, joinGuild, type TestGuild } from '../integration/gateway/gatewayFixtures.js';
import {
  assertAllAckedOnceInOrder,
  readAllMessages,
  type Acked,
  type MessageJson,
} from '../cluster/nodes/clusterFixtures.js';
import { assertFailedCleanly, describeAttempt, FAILURE_BOUND_MS, LoadClient, strangers } from './faultLoad.js';
import { cassandraScript, describeHealth, requireCassandraNodes, waitForHealth } from './faultServices.js';

/** The Cassandra node this test stops (not the seed node 1, which the other suites' clients contact). */
const STOPPED = 2;
const CONTACT_POINTS = '127.0.0.1,127.0.0.2,127.0.0.3';
const { consistencies } = cassandra.types;

describe('faults: replication factor 3 on three Cassandra nodes, one of them stopped', function () {
  this.timeout(30_000);
  let cluster: TestCluster | undefined;
  let owner: TestUser;
  let guild: TestGuild;
  let clients: LoadClient[] = [];
  let nodeDown = false;
  let replication: Record<string, string> = {};
  let whileDown: { acked: Acked[]; stored: MessageJson[]; atAll: string; atQuorum: number } | undefined;
  let stored: MessageJson[] = [];
  let allAfter = 0;
  const at = { stopping: 0, stopped: 0, starting: 0, started: 0 };

  before(async function () {
    this.timeout(300_000);
    await requireCassandraNodes([1, 2, 3], 'bash scripts/cassandra.sh start 3');
    const started = await startCluster({
      nodes: 2,
      env: { CHORUS_CASSANDRA_CONTACT_POINTS: CONTACT_POINTS, CHORUS_CASSANDRA_RF: '3' },
    });
    cluster = started;
    await started.reporting(async () => {
      const nodes = started.nodes as [ClusterNode, ClusterNode];
      replication = await withCassandraClient(async (client) => {
        const query = 'SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?';
        const row = (await client.execute(query, [started.keyspace], { prepare: true })).first();
        return (row?.get('replication') ?? {}) as Record<string, string>;
      });
      owner = await registerUser(nodes[0].api, 'owner');
      guild = await createGuild(nodes[1].api, owner.token, 'replicated');
      const poster = await registerUser(nodes[1].api, 'poster');
      await joinGuild(nodes[0].api, owner.token, guild.channelId, poster.token);
      clients = [owner, poster].map(
        (member, index) =>
          new LoadClient(`c${index + 1}`, member.token, guild.channelId, { nodes: () => nodes, start: index }),
      );
      for (const client of clients) client.start();
      await Promise.all(
        clients.map((c) => c.waitUntil('3 messages with every replica up', (x) => x.acked.length >= 3, 20_000)),
      );

      at.stopping = performance.now();
      nodeDown = true;
      await cassandraScript(['stop', String(STOPPED)], 60_000);
      at.stopped = performance.now();
      await Promise.all(
        clients.map((client) =>
          client.waitUntil(
            `5 messages sent with node ${STOPPED} down`,
            (c) => c.acked.filter((message) => message.sentAt > at.stopped).length >= 5,
            30_000,
          ),
        ),
      );
      const health = await waitForHealth(nodes, '200', (sample) => sample.status === 200, 5_000);
      console.log(`      with node ${STOPPED} down: ${health.map(describeHealth).join('; ')}`);
      const acked = clients.flatMap((client) => client.acked); // before the reads: clients keep posting
      whileDown = {
        acked,
        stored: await readAllMessages(nodes[0], owner.token, guild.channelId),
        atAll: await countAt(started.keyspace, guild.channelId, acked, consistencies.all).then(
          String,
          (error: unknown) => String(error),
        ),
        atQuorum: await countAt(started.keyspace, guild.channelId, acked, consistencies.localQuorum),
      };

      at.starting = performance.now();
      await cassandraScript(['start', '3'], 200_000); // nodes 1 and 3 run: restarts node STOPPED only
      nodeDown = false;
      at.started = performance.now();
      await Promise.all(
        clients.map((client) =>
          client.waitUntil(
            `3 messages sent after node ${STOPPED} returned`,
            (c) => c.acked.filter((message) => message.sentAt > at.started).length >= 3,
            30_000,
          ),
        ),
      );
      await Promise.all(clients.map((client) => client.stop()));
      stored = await readAllMessages(nodes[1], owner.token, guild.channelId);
      allAfter = await countAt(
        started.keyspace,
        guild.channelId,
        clients.flatMap((client) => client.acked),
        consistencies.all,
      );
    });
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed' && cluster) console.log(`node logs:\n${cluster.logTails(25)}`);
  });
  after(async function () {
    this.timeout(240_000);
    await Promise.allSettled(clients.map((client) => client.stop()));
    if (nodeDown) await cassandraScript(['start', '3'], 200_000);
    await cluster?.after();
  });

  it('creates the keyspace with replication factor 3', () => {
    assert.equal(replication['replication_factor'], '3', JSON.stringify(replication));
  });

  it(`keeps taking writes and serving reads at LOCAL_QUORUM with node ${STOPPED} of 3 stopped`, () => {
    const acked = clients.flatMap((client) => client.acked);
    const failed = clients.flatMap((client) => client.attempts).filter((attempt) => attempt.status !== 200);
    console.log(
      `      cassandra.sh stop ${STOPPED} took ${Math.round(at.stopped - at.stopping)} ms; ` +
        `${acked.filter((m) => m.sentAt > at.stopped && m.sentAt < at.starting).length} writes acknowledged ` +
        `while it was down, ${failed.length} attempts failed in the whole run; a read at ALL then: ` +
        (whileDown?.atAll.slice(0, 100) ?? '-'),
    );
    assertFailedCleanly(
      clients.flatMap((client) => client.attempts),
      FAILURE_BOUND_MS,
    );
    const sentWhileDown = clients.flatMap((client) => client.attemptsBetween(at.stopped, at.starting));
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
    const acked = clients.flatMap((client) => client.acked);
    console.log(
      `      cassandra.sh start 3 (node ${STOPPED} only) took ${Math.round(at.started - at.starting)} ms; ` +
        `${acked.length} acknowledged, ${stored.length} stored, ${allAfter} rows read at ALL`,
    );
    assertAllAckedOnceInOrder(stored, acked);
    assert.deepEqual(strangers(stored, clients), [], 'nothing is stored that no client sent');
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
    let count = 0;
    for (const bucket of buckets) {
      const query = `SELECT message_id FROM ${keyspace}.messages WHERE channel_id = ? AND bucket = ?`;
      const result = await client.execute(query, [channelId, bucket], { prepare: true, consistency });
      count += result.rowLength;
    }
    return count;
  });
}
