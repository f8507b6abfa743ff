import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type { ClusterNode } from '../../support/clusterHarness.js';
import { clusterPerSuite } from '../../support/clusterPerSuite.js';
import { api, registerUser, type TestUser } from '../../support/testServer.js';
import { fails, openDm, send } from '../../integration/messages/messageFixtures.js';

const PLACEMENT_ATTEMPTS = 20;

/**
 * A DM's Channel actor caches whether its recipients block each other; the blocker's User actor asks
 * it to drop that before answering the block. Here the blocker's User actor, the DM's Channel actor
 * and the edges the clients use live on different node processes.
 */
describe('cluster: a block reaches the DM it applies to on another node before the reply', function () {
  this.timeout(90_000);
  const cluster = clusterPerSuite({ nodes: 3 });

  it('refuses the next DM message through any node once the recipient blocked the sender, and unblock restores it', async () => {
    const [first] = cluster.live() as [ClusterNode];
    const blocker = await registerUser(first.api, 'blocker');
    const blockerNode = await cluster.ownerOf(`user:${blocker.id}`);
    let sender: TestUser | undefined;
    let dmId = '';
    for (let attempt = 0; attempt < PLACEMENT_ATTEMPTS && sender === undefined; attempt += 1) {
      const candidate = await registerUser(first.api, 'sender');
      const candidateDm = await openDm(first.api, candidate, blocker);
      if ((await cluster.ownerOf(`channel:${candidateDm}`)) !== blockerNode) [sender, dmId] = [candidate, candidateDm];
    }
    assert.ok(sender, 'a DM whose Channel actor lives on another node than the blocker’s User actor');
    const nodes = cluster.live();
    const at = (index: number): string => (nodes[index % nodes.length] as ClusterNode).api;

    // Every node's edge sends once: the Channel has read "no block" and cached it.
    for (let i = 0; i < nodes.length; i += 1) await send(at(i), sender, dmId, { content: `before ${i}` });
    await api(at(1), 'PUT', `/users/@me/relationships/${sender.id}`, {
      token: blocker.token,
      body: { type: 2 },
      expect: 204,
    });
    for (let i = 0; i < nodes.length; i += 1) {
      const error = await fails(at(i), 'POST', `/channels/${dmId}/messages`, sender, 403, { content: 'blocked' });
      assert.equal(error.code, 50_007);
    }
    await api(at(2), 'DELETE', `/users/@me/relationships/${sender.id}`, { token: blocker.token, expect: 204 });
    for (let i = 0; i < nodes.length; i += 1) await send(at(i), sender, dmId, { content: `after ${i}` });
  });
});
