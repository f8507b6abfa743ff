import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { pause, type ClusterNode } from '../../support/clusterHarness.js';
import { clusterPerSuite } from '../../support/clusterPerSuite.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { registerUser, type TestUser } from '../../support/testServer.js';
import { INTENTS, postWithRetry, request, retryable } from './clusterFixtures.js';

/** DIRECT_MESSAGES | MESSAGE_CONTENT. */
const DM_INTENTS = (1 << 12) | INTENTS.MESSAGE_CONTENT;
const PLACEMENT_ATTEMPTS = 30;

/**
 * A User actor's session list outlives the node hosting it (UserSessionStore): B is connected to a
 * surviving node, with its Session actor on a survivor too; the node hosting User(B) is killed
 * (SIGKILL). User(B), re-activated on a survivor, still knows B's session: a DM A opens afterwards
 * reaches B (CHANNEL_CREATE, then MESSAGE_CREATE) without B reconnecting.
 */
describe('cluster: a User actor re-activated after its node was killed keeps reaching its sessions', function () {
  this.timeout(120_000);
  const open: GatewayClient[] = [];
  const cluster = clusterPerSuite(
    { nodes: 3 },
    {
      hookTimeoutMs: 150_000,
      logLines: 30,
      tearDown: () => Promise.all(open.map((client) => client.drop())),
    },
  );

  /** Registers users on `via` until one's User actor lives on a node `placed` accepts. */
  async function userPlaced(via: ClusterNode, name: string, placed: (host: ClusterNode) => boolean): Promise<TestUser> {
    for (let attempt = 0; attempt < PLACEMENT_ATTEMPTS; attempt += 1) {
      const user = await registerUser(via.api, name);
      if (placed(await cluster.ownerOf(`user:${user.id}`))) return user;
    }
    throw new Error(`${PLACEMENT_ATTEMPTS} registrations placed no User actor where the test needs it`);
  }

  /** Identifies on `edge` until the session's actor lives on a node other than `avoid`; closes the other attempts. */
  async function sessionOff(edge: ClusterNode, avoid: ClusterNode, token: string): Promise<GatewayClient> {
    for (let attempt = 0; attempt < PLACEMENT_ATTEMPTS; attempt += 1) {
      const { client, ready } = await GatewayClient.identified(edge.gatewayUrl, token, { intents: DM_INTENTS });
      open.push(client);
      if ((await cluster.ownerOf(`session:${String(ready['session_id'])}`, edge)) !== avoid) return client;
      await client.close(1000);
    }
    throw new Error(`${PLACEMENT_ATTEMPTS} identifies on ${edge.name} all placed the session on ${avoid.name}`);
  }

  /** POST /users/@me/channels as a client does, retried after a network error or a 5xx (find-or-create). */
  async function openDm(nodes: readonly ClusterNode[], sender: TestUser, recipientId: string): Promise<string> {
    const failures: string[] = [];
    for (let attempt = 0; attempt < 60; attempt += 1) {
      const node = nodes[attempt % nodes.length] as ClusterNode;
      const outcome = await request(node.api, 'POST', '/users/@me/channels', {
        token: sender.token,
        body: { recipient_id: recipientId },
      });
      if (outcome.status === 200) return (JSON.parse(outcome.body) as { id: string }).id;
      if (!retryable(outcome)) throw new Error(`open DM via ${node.name}: ${outcome.status} ${outcome.body}`);
      failures.push(`${node.name}: ${outcome.status} ${outcome.body.slice(0, 160)}`);
      await pause(100); // a client's retry delay
    }
    throw new Error(`open DM failed 60 times:\n  ${failures.slice(-6).join('\n  ')}`);
  }

  it('delivers a DM opened after the kill to B, connected to a survivor, without a reconnect', async () => {
    const [first] = cluster.nodes as [ClusterNode, ClusterNode, ClusterNode];
    const bob = await registerUser(first.api, 'bob');
    const victim = await cluster.ownerOf(`user:${bob.id}`);
    const survivors = cluster.nodes.filter((node) => node !== victim);
    // A's own User actor stays up: what moves is User(B) alone (B's socket and session stay on survivors).
    const ann = await userPlaced(survivors[0] as ClusterNode, 'ann', (host) => host !== victim);
    const client = await sessionOff(survivors[1] as ClusterNode, victim, bob.token);

    victim.kill('SIGKILL');
    await victim.exited();
    await cluster.waitForMembers(survivors);
    const dmId = await openDm(survivors, ann, bob.id);
    assert.notEqual(await cluster.ownerOf(`channel:${dmId}`, survivors[0]), victim);
    const sent = await postWithRetry(ann.token, dmId, 'ann', 'dm-1', 'are you still there?', {
      nodes: () => survivors,
    });

    const created = await client.waitForDispatch<{ id: string }>('CHANNEL_CREATE', (d) => d.id === dmId, {
      timeoutMs: 20_000,
    });
    const message = await client.waitForDispatch<{ id: string; content: string }>(
      'MESSAGE_CREATE',
      (d) => d.id === sent.id,
      { timeoutMs: 20_000 },
    );
    assert.equal(message.d.content, 'are you still there?');
    assert.ok((created.s ?? 0) < (message.s ?? 0), 'CHANNEL_CREATE comes first');
    assert.deepEqual(
      client.frames.filter((frame) => frame.op === 7 || frame.op === 9),
      [],
      'the session itself never moved: no reconnect, no invalid session',
    );
  });
});
