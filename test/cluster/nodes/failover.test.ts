import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, afterEach, before, describe, it } from 'mocha';
import { startCluster, type ClusterNode, type TestCluster } from '../../support/clusterHarness.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { registerUser, type TestUser } from '../../support/testServer.js';
import { createGuild, joinGuild, type TestGuild } from '../../integration/gateway/gatewayFixtures.js';
import { assertAllAckedOnceInOrder, INTENTS, Poster, readAllMessages, type MessageJson } from './clusterFixtures.js';

/** The target: every key a killed node owned is served again within this. */
const FAILOVER_TARGET_MS = 5_000;

describe('cluster: kill -9 of the node hosting a busy channel (and its guild)', function () {
  this.timeout(60_000);
  let cluster: TestCluster;
  let owner: TestUser;
  let guild: TestGuild;
  let victim: ClusterNode;
  let watcher: GatewayClient | undefined;
  let posters: Poster[] = [];
  let stored: MessageJson[];
  let killedAt = 0;

  before(async function () {
    this.timeout(150_000);
    cluster = await startCluster({ nodes: 3 });
    await cluster.reporting(async () => {
      const [first, second, third] = cluster.nodes as [ClusterNode, ClusterNode, ClusterNode];
      owner = await registerUser(first.api, 'owner');
      // A guild whose Guild actor and text channel's Channel actor live on the same node: the victim.
      for (let attempt = 0; attempt < 15 && !victim; attempt += 1) {
        const candidate = await createGuild(second.api, owner.token, `busy ${attempt}`);
        const channelHost = await cluster.ownerOf(`channel:${candidate.channelId}`);
        if ((await cluster.ownerOf(`guild:${candidate.id}`)) !== channelHost) continue;
        guild = candidate;
        victim = channelHost;
      }
      if (!victim) throw new Error('15 guilds did not place a guild and its channel on one node');
      const survivors = cluster.nodes.filter((node) => node !== victim);
      const members = [owner, await registerUser(second.api, 'poster'), await registerUser(third.api, 'poster')];
      for (const member of members.slice(1))
        await joinGuild(survivors[0]!.api, owner.token, guild.channelId, member.token);
      watcher = await watchFromSurvivor(survivors);

      // Three clients post through the surviving nodes only; the channel's actor runs on the victim.
      posters = members.map(
        (member, index) =>
          new Poster(`c${index + 1}`, member.token, guild.channelId, { nodes: () => survivors, start: index }),
      );
      for (const poster of posters) poster.start();
      await Promise.all(
        posters.map((poster) => poster.waitUntil('3 messages before the kill', (p) => p.acked.length >= 3, 20_000)),
      );

      killedAt = performance.now();
      victim.kill('SIGKILL');
      await victim.exited();
      // Each client keeps posting until it had 5 messages acknowledged that it sent after the kill.
      await Promise.all(
        posters.map((poster) =>
          poster.waitUntil(
            '5 messages sent after the kill',
            (p) => p.acked.filter((message) => message.sentAt > killedAt).length >= 5,
            30_000,
          ),
        ),
      );
      await Promise.all(posters.map((poster) => poster.stop()));
      await cluster.waitForMembers(survivors);
      stored = await readAllMessages(survivors[0]!, owner.token, guild.channelId);
    });
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(`node logs:\n${cluster.logTails(25)}`);
  });
  after(async () => {
    await watcher?.drop();
    await Promise.allSettled(posters.map((poster) => poster.stop()));
    await cluster?.after();
  });

  /** A gateway client of the owner on a survivor whose Session actor also lives on a survivor. */
  async function watchFromSurvivor(survivors: readonly ClusterNode[]): Promise<GatewayClient> {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const { client, ready } = await GatewayClient.identified(survivors[attempt % 2]!.gatewayUrl, owner.token, {
        intents: INTENTS.GUILDS | INTENTS.GUILD_MESSAGES | INTENTS.MESSAGE_CONTENT,
      });
      if ((await cluster.ownerOf(`session:${String(ready['session_id'])}`)) !== victim) return client;
      await client.close(1000);
    }
    throw new Error('10 identifies did not place a session on a survivor');
  }

  it('keeps every acknowledged message readable from a survivor, in acknowledged order, none duplicated', () => {
    const acked = posters.flatMap((poster) => poster.acked);
    const failed = posters.reduce((sum, poster) => sum + poster.failures.length, 0);
    console.log(
      `      ${acked.length} messages acknowledged (${failed} failed attempts retried), ${stored.length} stored; ` +
        `killed ${victim.name}`,
    );
    assertAllAckedOnceInOrder(stored, acked);
    // Nothing in the channel that no client sent (a retry never becomes a second message).
    const sent = new Set(acked.map((message) => message.content));
    assert.deepEqual(
      stored.filter((message) => !sent.has(message.content)).map((message) => message.content),
      [],
    );
  });

  it(`serves the channel again within ${FAILOVER_TARGET_MS} ms of the kill`, () => {
    const after = posters.flatMap((poster) => poster.acked).filter((message) => message.sentAt > killedAt);
    const gap = Math.min(...after.map((message) => message.ackedAt)) - killedAt;
    console.log(`      failover gap: ${Math.round(gap)} ms from SIGKILL to the first acknowledged request`);
    assert.ok(gap < FAILOVER_TARGET_MS, `failover took ${Math.round(gap)} ms`);
  });

  // A message stored just before the kill but never dispatched reaches the client when the channel
  // activates on a survivor (actors/channel/dispatchOutbox.ts); the guild's subscriptions are durable.
  it('still delivers every acknowledged message to a connected client', async () => {
    const client = watcher as GatewayClient;
    const acked = posters.flatMap((poster) => poster.acked);
    // Every acknowledged message, not just the last: one re-routed after its first owner died may arrive
    // after later ones (order across a failover is not promised; delivery is).
    const expected = new Set(acked.map((message) => message.id));
    await client
      .waitFor(
        'every acknowledged MESSAGE_CREATE',
        () => {
          const seen = new Set(client.dispatches<{ id: string }>('MESSAGE_CREATE').map((frame) => frame.d.id));
          return [...expected].every((id) => seen.has(id));
        },
        { timeoutMs: 15_000 },
      )
      .catch(() => undefined); // the assertion below names what is missing
    const frames = client.dispatches<{ id: string }>('MESSAGE_CREATE');
    const received = new Set(frames.map((frame) => frame.d.id));
    const again = cluster.nodes.flatMap((node) => node.events('message_redispatched'));
    console.log(
      `      ${frames.length} MESSAGE_CREATE received (${received.size} distinct); dispatched again: ` +
        `${again.filter((entry) => entry['reason'] === 'activation').length} at activation, ` +
        `${again.filter((entry) => entry['reason'] === 'retry').length} on a nonce retry`,
    );
    assert.deepEqual(
      acked.filter((message) => !received.has(message.id)).map((message) => message.content),
      [],
      'acknowledged messages that never reached the client',
    );
  });

  it('takes the killed node back as a new member after a restart, serving the same messages through it', async () => {
    const before = victim.nodeId;
    await victim.restart();
    assert.notEqual(victim.nodeId, before, 'a restarted node is a new incarnation');
    await cluster.waitForMembers(cluster.nodes);
    assert.deepEqual(
      (await readAllMessages(victim, owner.token, guild.channelId)).map((message) => message.id),
      stored.map((message) => message.id),
    );
  });
});
