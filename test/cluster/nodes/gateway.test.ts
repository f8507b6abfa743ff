import assert from 'node:assert/strict';
import { before, describe, it } from 'mocha';
import type { ClusterNode } from '../../support/clusterHarness.js';
import { clusterPerSuite } from '../../support/clusterPerSuite.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { registerUser, type TestUser } from '../../support/testServer.js';
import {
  addBot,
  createBot,
  createGuild,
  postMessage,
  type TestGuild,
} from '../../integration/gateway/gatewayFixtures.js';
import { INTENTS, postWithRetry, type Acked } from './clusterFixtures.js';
import { assertResumed } from './resumeAssertions.js';

const BOT_INTENTS = INTENTS.GUILDS | INTENTS.GUILD_MESSAGES | INTENTS.MESSAGE_CONTENT;

describe('cluster: gateway clients on other nodes than the REST call', function () {
  this.timeout(60_000);
  let a: ClusterNode;
  let b: ClusterNode;
  let c: ClusterNode;
  let owner: TestUser;
  let guild: TestGuild;
  const open: GatewayClient[] = [];

  const cluster = clusterPerSuite(
    { nodes: 3 },
    {
      setUp: async () => {
        [a, b, c] = cluster.nodes as [ClusterNode, ClusterNode, ClusterNode];
        owner = await registerUser(a.api, 'owner');
        guild = await createGuild(b.api, owner.token, 'cluster lobby');
      },
      tearDown: () => Promise.all(open.map((client) => client.drop())),
    },
  );

  it('delivers MESSAGE_CREATE for a message posted on node A to bots identified on nodes B and C', async () => {
    const onB = await createBot(a.api, owner.token, 'bot-b');
    const onC = await createBot(c.api, owner.token, 'bot-c');
    await addBot(b.api, owner.token, onB, guild.id);
    await addBot(c.api, owner.token, onC, guild.id);
    const clients = await Promise.all(
      [
        { node: b, bot: onB },
        { node: c, bot: onC },
      ].map(async ({ node, bot }) => {
        const { client, ready } = await GatewayClient.identified(node.gatewayUrl, bot.token, { intents: BOT_INTENTS });
        open.push(client);
        assert.equal((ready['user'] as { id: string }).id, bot.id);
        await client.waitForDispatch<{ id: string }>('GUILD_CREATE', (d) => d.id === guild.id, { timeoutMs: 10_000 });
        return client;
      }),
    );

    const posted = await postMessage(a.api, owner.token, guild.channelId, 'posted on node A');
    for (const client of clients) {
      const frame = await client.waitForDispatch<{ id: string; content: string; channel_id: string; guild_id: string }>(
        'MESSAGE_CREATE',
        (d) => d.id === posted.id,
        { timeoutMs: 10_000 },
      );
      assert.equal(frame.d.content, 'posted on node A');
      assert.equal(frame.d.channel_id, guild.channelId);
      assert.equal(frame.d.guild_id, guild.id);
    }
  });

  it('resumes on node B a session identified on node A: the missed dispatches in order, then RESUMED', async () => {
    const { client: first, ready } = await GatewayClient.identified(a.gatewayUrl, owner.token, {
      intents: BOT_INTENTS,
    });
    open.push(first);
    const before = await postMessage(c.api, owner.token, guild.channelId, 'before the disconnect');
    await first.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === before.id, { timeoutMs: 10_000 });
    const seq = first.lastSeq ?? 0;
    await first.close(4000); // not 1000: the session stays resumable

    // An observer session of the same user on node C: once it has the last missed message, the
    // guild has fanned all three out (the dispatch is a tell, after the POST's reply).
    const { client: observer } = await GatewayClient.identified(c.gatewayUrl, owner.token, { intents: BOT_INTENTS });
    open.push(observer);
    const missed: { id: string }[] = [];
    for (const content of ['missed 1', 'missed 2', 'missed 3'])
      missed.push(await postMessage(c.api, owner.token, guild.channelId, content));
    await observer.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === missed.at(-1)?.id);

    const second = await GatewayClient.connect(b.gatewayUrl);
    open.push(second);
    await second.waitFor('op 10 Hello on node B', (frame) => frame.op === 10);
    second.send(6, { token: owner.token, session_id: ready['session_id'], seq });
    await assertResumed(
      second,
      seq,
      missed.map((message) => message.id),
    );
    const resumed = await second.waitForDispatch('RESUMED');
    const live = await postMessage(a.api, owner.token, guild.channelId, 'live after resume');
    const frame = await second.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === live.id, {
      timeoutMs: 10_000,
    });
    assert.ok((frame.s ?? 0) > (resumed.s ?? 0));
  });

  describe('when the edge node holding the sockets is killed (kill -9)', () => {
    /** A client identified on the edge node, the node hosting its Session actor, and the last seq it saw. */
    interface Held {
      readonly client: GatewayClient;
      readonly sessionId: string;
      readonly host: ClusterNode;
      seq: number;
    }
    let edge: ClusterNode;
    let survivors: ClusterNode[];
    let elsewhere: Held;
    let onEdge: Held;
    const missed: Acked[] = [];

    before(async function () {
      this.timeout(90_000);
      await cluster.reporting(async () => {
        // The edge hosts neither the guild's actor nor its channel's (which runs beside it): what dies is
        // sockets and sessions only (the failover of a Guild or Channel actor is failover.test.ts's subject).
        const busy = await cluster.ownerOf(`guild:${guild.id}`);
        edge = [c, b, a].find((node) => node !== busy) ?? c;
        survivors = cluster.nodes.filter((node) => node !== edge);
        // Identify on the edge until one session's actor lives on a survivor and one's on the edge itself.
        const found: { elsewhere?: Held; onEdge?: Held } = {};
        for (let attempt = 0; attempt < 20 && !(found.elsewhere && found.onEdge); attempt += 1) {
          const { client, ready } = await GatewayClient.identified(edge.gatewayUrl, owner.token, {
            intents: BOT_INTENTS,
          });
          open.push(client);
          const sessionId = String(ready['session_id']);
          const host = await cluster.ownerOf(`session:${sessionId}`, edge);
          const held = { client, sessionId, host, seq: 0 };
          if (host === edge && !found.onEdge) found.onEdge = held;
          else if (host !== edge && !found.elsewhere) found.elsewhere = held;
          else await client.close(1000);
        }
        if (!found.elsewhere || !found.onEdge) {
          throw new Error(`20 identifies on ${edge.name} did not place one session there and one elsewhere`);
        }
        ({ elsewhere, onEdge } = found as { elsewhere: Held; onEdge: Held });
        const marker = await postMessage(survivors[0]!.api, owner.token, guild.channelId, 'before the kill');
        for (const held of [elsewhere, onEdge]) {
          await held.client.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === marker.id, {
            timeoutMs: 10_000,
          });
          held.seq = held.client.lastSeq ?? 0;
        }
        edge.kill('SIGKILL');
        await edge.exited();
        await Promise.all([elsewhere.client.closed, onEdge.client.closed]);
        // Posted while the clients are away, through the survivors; an observer session (identified once
        // the survivors' view no longer places sessions on the dead edge) tells when the guild has fanned
        // the last one out.
        await cluster.waitForMembers(survivors);
        const { client: observer } = await GatewayClient.identified(survivors[1]!.gatewayUrl, owner.token, {
          intents: BOT_INTENTS,
        });
        open.push(observer);
        for (let n = 1; n <= 3; n += 1) {
          missed.push(
            await postWithRetry(owner.token, guild.channelId, 'k', `k-${n}`, `missed after the kill ${n}`, {
              nodes: () => survivors,
            }),
          );
        }
        await observer.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === missed.at(-1)?.id);
      });
    });

    /** Resumes `held` on a survivor and checks the replay (see assertResumed). */
    async function resumeOnSurvivor(held: Held): Promise<void> {
      const client = await GatewayClient.connect(survivors[0]!.gatewayUrl);
      open.push(client);
      await client.waitFor('op 10 Hello on a survivor', (frame) => frame.op === 10);
      client.send(6, { token: owner.token, session_id: held.sessionId, seq: held.seq });
      const seen = held.client.dispatches<{ id: string }>('MESSAGE_CREATE').map((frame) => frame.d.id);
      await assertResumed(
        client,
        held.seq,
        missed.map((message) => message.id),
        new Set(seen),
      );
    }

    it('resumes on a survivor a session whose actor lives on a survivor, missing no event', async () => {
      assert.notEqual(elsewhere.host, edge);
      await resumeOnSurvivor(elsewhere);
    });

    // The Session actor died with the edge node: its new owner rebuilds it from the session store
    // (sequence and resume buffer are durable in Redis), so the resume still replays everything.
    it('resumes on a survivor a session whose actor died with the edge', async function () {
      assert.equal(onEdge.host, edge);
      await resumeOnSurvivor(onEdge);
    });
  });
});
