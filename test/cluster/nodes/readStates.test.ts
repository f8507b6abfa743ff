import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type { ClusterNode } from '../../support/clusterHarness.js';
import { clusterPerSuite } from '../../support/clusterPerSuite.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, registerUser, type TestUser } from '../../support/testServer.js';
import { createGuild, joinGuild, postMessage, type TestGuild } from '../../integration/gateway/gatewayFixtures.js';

interface ReadStateEntry {
  id: string;
  last_message_id: string;
  mention_count: number;
}

/** How long a tell between nodes may take to land before a READY shows it. */
const SETTLE_MS = 10_000;

describe('cluster: read states kept in Cassandra by the User actor, read by READY on any node', function () {
  this.timeout(60_000);
  let a: ClusterNode;
  let b: ClusterNode;
  let c: ClusterNode;
  let alice: TestUser;
  let bob: TestUser;
  let guild: TestGuild;

  const cluster = clusterPerSuite(
    { nodes: 3 },
    {
      setUp: async () => {
        [a, b, c] = cluster.nodes as [ClusterNode, ClusterNode, ClusterNode];
        alice = await registerUser(a.api, 'alice');
        bob = await registerUser(b.api, 'bob');
        guild = await createGuild(a.api, alice.token, 'reads');
        await joinGuild(b.api, alice.token, guild.channelId, bob.token);
      },
    },
  );

  /** The read state of the guild channel in READY on `node`, once it satisfies `settled`. */
  const entryOnceSettled = async (
    node: ClusterNode,
    user: TestUser,
    settled: (entry: ReadStateEntry | undefined) => boolean,
  ): Promise<ReadStateEntry | undefined> => {
    const deadline = Date.now() + SETTLE_MS;
    for (;;) {
      const { client, ready } = await GatewayClient.identified(node.gatewayUrl, user.token);
      await client.close();
      const entry = (ready['read_state'] as ReadStateEntry[]).find((state) => state.id === guild.channelId);
      if (settled(entry) || Date.now() > deadline) return entry;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  it('counts a mention posted through one node and shows it, then the ack through another, in READY on a third', async () => {
    const ping = await postMessage(b.api, bob.token, guild.channelId, `hi <@${alice.id}>`);
    const mentioned = await entryOnceSettled(c, alice, (entry) => entry?.mention_count === 1);
    assert.equal(mentioned?.mention_count, 1);
    await api(a.api, 'POST', `/channels/${guild.channelId}/messages/${ping.id}/ack`, { token: alice.token, body: {} });
    const acked = await entryOnceSettled(c, alice, (entry) => entry?.last_message_id === ping.id);
    assert.deepEqual([acked?.last_message_id, acked?.mention_count], [ping.id, 0]);
    const own = await entryOnceSettled(a, bob, (entry) => entry?.last_message_id === ping.id);
    assert.equal(own?.last_message_id, ping.id, 'the author’s read state moved to their message');
  });
});
