import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type { ClusterNode } from '../../support/clusterHarness.js';
import { clusterPerSuite } from '../../support/clusterPerSuite.js';
import { GatewayClient, type GatewayFrame } from '../../support/GatewayClient.js';
import { registerUser, type TestUser } from '../../support/testServer.js';
import { createGuild, type TestGuild } from '../../integration/gateway/gatewayFixtures.js';
import { INTENTS, postWithRetry, type Acked } from './clusterFixtures.js';

const CLIENT_INTENTS = INTENTS.GUILDS | INTENTS.GUILD_MESSAGES | INTENTS.MESSAGE_CONTENT;
const IDENTIFY_ATTEMPTS = 30;

/**
 * DESIGN §8.5 across a node loss: the Session actor of a client lives on node C, its socket on node A.
 * C is killed (SIGKILL); messages are posted meanwhile through the survivors. The session comes back
 * on its new owner from the SessionStore, asks its client to reconnect (op 7), and the client resumes
 * on node B without missing an event. Then a Guild actor's node is killed: the guild, re-activated on
 * the survivor, still fans out to the sessions that were subscribed (SubscriptionStore).
 */
describe('cluster: sessions and guild subscriptions outlive the node hosting them', function () {
  this.timeout(120_000);
  let owner: TestUser;
  let guild: TestGuild;
  const open: GatewayClient[] = [];

  const cluster = clusterPerSuite(
    { nodes: 3 },
    {
      hookTimeoutMs: 150_000,
      logLines: 30,
      setUp: async () => {
        const [first, second] = cluster.nodes as [ClusterNode, ClusterNode, ClusterNode];
        owner = await registerUser(first.api, 'owner');
        guild = await createGuild(second.api, owner.token, 'failover');
      },
      tearDown: () => Promise.all(open.map((client) => client.drop())),
    },
  );

  /** Identifies on `edge` until the session's actor lives on `host`; closes the other attempts. */
  async function sessionHostedOn(
    edge: ClusterNode,
    host: ClusterNode,
  ): Promise<{ client: GatewayClient; sessionId: string }> {
    for (let attempt = 0; attempt < IDENTIFY_ATTEMPTS; attempt += 1) {
      const { client, ready } = await GatewayClient.identified(edge.gatewayUrl, owner.token, {
        intents: CLIENT_INTENTS,
      });
      open.push(client);
      const sessionId = String(ready['session_id']);
      if ((await cluster.ownerOf(`session:${sessionId}`, edge)) === host) return { client, sessionId };
      await client.close(1000);
    }
    throw new Error(`${IDENTIFY_ATTEMPTS} identifies on ${edge.name} placed no session on ${host.name}`);
  }

  /** Resumes on `node` as a client does: after op 7 or a close, it reconnects and tries again. */
  async function resumeOn(node: ClusterNode, sessionId: string, seq: number): Promise<GatewayClient> {
    const refusals: string[] = [];
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const client = await GatewayClient.connect(node.gatewayUrl);
      open.push(client);
      await client.waitFor(`op 10 Hello on ${node.name}`, (frame) => frame.op === 10);
      client.send(6, { token: owner.token, session_id: sessionId, seq });
      const answer = await Promise.race([
        client.waitFor('RESUMED, op 7 or op 9', (frame) => frame.t === 'RESUMED' || frame.op === 7 || frame.op === 9, {
          timeoutMs: 15_000,
        }),
        client.closed.then((close): GatewayFrame => ({ op: -1, d: close, s: null, t: null })),
      ]);
      assert.notEqual(answer.op, 9, `the resume on ${node.name} is answered op 9: the session is gone`);
      if (answer.t === 'RESUMED') return client;
      refusals.push(answer.op === 7 ? 'op 7' : `closed ${JSON.stringify(answer.d)}`);
      await client.closed; // op 7 comes with a close 4000: the session could not be served yet
    }
    throw new Error(`20 resumes on ${node.name} were refused: ${refusals.join(', ')}`);
  }

  it('resumes on node B, after node C hosting its Session actor was killed, without missing an event', async () => {
    // C hosts the session only, not the guild or the channel: what is tested is the session's failover.
    const busy = [await cluster.ownerOf(`guild:${guild.id}`), await cluster.ownerOf(`channel:${guild.channelId}`)];
    const c = cluster.nodes.find((node) => !busy.includes(node));
    assert.ok(c, 'a node hosts neither the guild nor its channel');
    const [a, b] = cluster.nodes.filter((node) => node !== c) as [ClusterNode, ClusterNode];
    const { client, sessionId } = await sessionHostedOn(a, c);
    const before = await postWithRetry(owner.token, guild.channelId, 'f', 'f-0', 'before the kill', {
      nodes: () => [b],
    });
    await client.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === before.id, { timeoutMs: 10_000 });
    const seq = client.lastSeq ?? 0;

    c.kill('SIGKILL');
    await c.exited();
    // Posted at once, while the survivors may still place the session on the dead node.
    const missed: Acked[] = [];
    for (let n = 1; n <= 5; n += 1) {
      missed.push(
        await postWithRetry(owner.token, guild.channelId, 'f', `f-${n}`, `while C is dead ${n}`, {
          nodes: () => [a, b],
          start: n,
        }),
      );
    }
    // The session came back on its new owner with the first of them, and asked its client to reconnect.
    const reconnect = await client.waitFor('op 7 from the session on its new owner', (frame) => frame.op === 7, {
      timeoutMs: 20_000,
    });
    assert.equal(reconnect.op, 7);
    assert.equal((await client.closed).code, 4000);
    assert.equal(client.dispatches('MESSAGE_CREATE').length, 1, 'nothing was pushed to the old socket');

    const resumed = await resumeOn(b, sessionId, seq);
    const last = missed.at(-1)?.id;
    await resumed.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === last, { timeoutMs: 20_000 });
    const dispatches = resumed.frames.filter((frame) => frame.op === 0);
    assert.deepEqual(
      dispatches.map((frame) => `${frame.t} #${frame.s}`),
      dispatches.map((frame, index) => `${frame.t} #${seq + 1 + index}`),
      'the session goes on numbering where the client left it, without a gap',
    );
    // At least once: the message delivered before the kill may come again (its fan-out is re-sent when
    // the acknowledgement died with C), under a new sequence number; nothing posted meanwhile is missing.
    assert.deepEqual(
      resumed
        .dispatches<{ id: string }>('MESSAGE_CREATE')
        .map((frame) => frame.d.id)
        .filter((id) => id !== before.id),
      missed.map((message) => message.id),
      'every message posted while C was dead arrives once, in order',
    );
    assert.equal(resumed.dispatches('RESUMED').length, 1);
    const replayed = dispatches.findIndex((frame) => frame.t === 'RESUMED');
    const count = (event: string): number => a.events(event).length + b.events(event).length;
    console.log(
      `      ${replayed} of ${missed.length} replayed before RESUMED, the rest live; ` +
        `${count('remote_sends_rerouted')} held sends rerouted, ${count('gateway_resume_failed')} resumes refused for now`,
    );
  });

  it('keeps fanning out to subscribed sessions after the node hosting the Guild actor was killed', async () => {
    const survivors = cluster.live();
    await cluster.waitForMembers(survivors);
    const g = await cluster.ownerOf(`guild:${guild.id}`, survivors[0]);
    const s = survivors.find((node) => node !== g);
    assert.ok(s, `a survivor besides ${g.name}, which hosts the guild`);
    const { client } = await sessionHostedOn(s, s);
    const marker = await postWithRetry(owner.token, guild.channelId, 'g', 'g-0', 'before the guild dies', {
      nodes: () => [s],
    });
    await client.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === marker.id, { timeoutMs: 10_000 });

    g.kill('SIGKILL');
    await g.exited();
    await cluster.waitForMembers([s]);
    const after = await postWithRetry(owner.token, guild.channelId, 'g', 'g-1', 'after the guild moved', {
      nodes: () => [s],
    });
    // Only a guild that re-loaded its subscriptions knows this session is there.
    const frame = await client.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === after.id, {
      timeoutMs: 20_000,
    });
    // Nothing numbered for the session was lost on the way: every sequence from the marker's on arrived (another
    // dispatch may come between the two messages, e.g. a presence change of a user whose sessions died with g).
    const seen = new Set(client.frames.map((received) => received.s));
    const from = client.dispatches<{ id: string }>('MESSAGE_CREATE').find((m) => m.d.id === marker.id)?.s ?? 1;
    const tail = client.frames.slice(-8).map((received) => `${received.t ?? `op${received.op}`}#${received.s ?? '-'}`);
    for (let seq = from; seq <= (frame.s ?? 0); seq += 1)
      assert.ok(seen.has(seq), `sequence ${seq} never reached the client; last frames: ${tail.join(', ')}`);
  });
});
