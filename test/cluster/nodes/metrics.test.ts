import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type { ClusterNode } from '../../support/clusterHarness.js';
import { clusterPerSuite } from '../../support/clusterPerSuite.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { registerUser } from '../../support/testServer.js';
import { createGuild, postMessage } from '../../integration/gateway/gatewayFixtures.js';
import { parseMetrics, total, type Sample } from '../../integration/metricsText.js';
import { addressOf } from '../../../cluster/transport/GrpcClientPool.js';

async function scrape(node: ClusterNode): Promise<Sample[]> {
  const response = await fetch(`${node.url}/metrics`);
  assert.equal(response.status, 200);
  return parseMetrics(await response.text());
}

describe('cluster: metrics of a node', function () {
  this.timeout(60_000);
  const cluster = clusterPerSuite({ nodes: 2 });

  it('shows remote calls by peer, lease acquisitions, Cassandra and Redis storage and both dependencies up', async () => {
    const [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
    // Users and guilds spread over both nodes: each edge asks actors the other node owns.
    const users = await Promise.all([1, 2, 3, 4].map((n) => registerUser(n % 2 ? a.api : b.api, `metrics${n}`)));
    for (const [n, user] of users.entries()) {
      const guild = await createGuild(n % 2 ? b.api : a.api, user.token, `metrics ${n}`);
      await postMessage(n % 2 ? a.api : b.api, user.token, guild.channelId, 'counted');
    }
    // A gateway session: its record and frames live in Redis.
    const client = await GatewayClient.connect(a.gatewayUrl);
    try {
      await client.identify(users[0]?.token ?? '');
    } finally {
      await client.drop();
    }
    const [onA, onB] = await Promise.all([scrape(a), scrape(b)]);
    for (const [node, other, samples] of [
      [a, b, onA],
      [b, a, onB],
    ] as const) {
      assert.equal(total(samples, 'chorus_dependency_up', { dependency: 'redis' }), 1, `${node.name} redis`);
      assert.equal(total(samples, 'chorus_dependency_up', { dependency: 'cassandra' }), 1, `${node.name} cassandra`);
      assert.ok(total(samples, 'chorus_storage_operation_duration_seconds_count', { backend: 'cassandra' }) > 0);
      assert.ok(total(samples, 'chorus_lease_acquisitions_total', { outcome: 'ok' }) > 0, `${node.name} leases`);
      assert.ok(total(samples, 'chorus_leases_held') > 0);
      // The peer is named by its address, without the incarnation of its node id.
      const peer = addressOf(other.nodeId);
      assert.ok(!peer.includes('@'));
      assert.ok(total(samples, 'chorus_remote_calls_total', { peer }) > 0, `${node.name} calls to ${other.name}`);
    }
    const asks = (samples: Sample[]): number =>
      total(samples, 'chorus_remote_call_duration_seconds_count', { call: 'ask' });
    assert.ok(asks(onA) + asks(onB) > 0, 'remote asks timed');
    assert.ok(total([...onA, ...onB], 'chorus_storage_operation_duration_seconds_count', { backend: 'redis' }) > 0);
  });
});
