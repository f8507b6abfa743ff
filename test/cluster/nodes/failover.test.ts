import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'mocha';
import type { ClusterNode } from '../../support/clusterHarness.js';
import { clusterPerSuite } from '../../support/clusterPerSuite.js';
import { ChaosSession } from '../../chaos/ChaosSession.js';
import { registerUser, type TestUser } from '../../support/testServer.js';
import { createGuild, joinGuild, type TestGuild } from '../../integration/gateway/gatewayFixtures.js';
import { assertAllAckedOnceInOrder, Poster, readAllMessages, type MessageJson } from './clusterFixtures.js';

/** The target: every key a killed node owned is served again within this. */
const FAILOVER_TARGET_MS = 5_000;

describe('cluster: kill -9 of the node hosting a busy channel (and its guild)', function () {
  this.timeout(60_000);
  let owner: TestUser;
  let guild: TestGuild;
  let victim: ClusterNode;
  let watcher: ChaosSession | undefined;
  let posters: Poster[] = [];
  let stored: MessageJson[];
  let killedAt = 0;

  const cluster = clusterPerSuite(
    { nodes: 3 },
    {
      hookTimeoutMs: 150_000,
      setUp: async () => {
        const [first, second, third] = cluster.nodes as [ClusterNode, ClusterNode, ClusterNode];
        owner = await registerUser(first.api, 'owner');
        // The node of the guild, which runs its text channel's Channel actor too (placed by the guild): the victim.
        guild = await createGuild(second.api, owner.token, 'busy');
        victim = await cluster.ownerOf(`guild:${guild.id}`);
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
      },
      tearDown: async () => {
        await watcher?.stop();
        await Promise.allSettled(posters.map((poster) => poster.stop()));
      },
    },
  );

  /**
   * A gateway client of the owner connected to survivors, whose Session actor also lives on a survivor. It
   * resumes after op 7 as client libraries do: on a loaded machine a Session's 1 s lease can lapse (its renewal
   * late), and the activation that takes the session over asks the client to reconnect and resume.
   */
  async function watchFromSurvivor(survivors: readonly ClusterNode[]): Promise<ChaosSession> {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const pick = (n: number): string => survivors[(attempt + n) % survivors.length]!.gatewayUrl;
      const client = new ChaosSession(`watcher${attempt}`, owner.token, pick);
      client.start();
      await client.waitUntil('READY', (session) => session.current !== undefined, 15_000);
      if ((await cluster.ownerOf(`session:${client.current!.sessionId}`)) !== victim) return client;
      await client.stop();
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
    const client = watcher as ChaosSession;
    const acked = posters.flatMap((poster) => poster.acked);
    // Every acknowledged message, not just the last: one re-routed after its first owner died may arrive
    // after later ones (order across a failover is not promised; delivery is).
    const received = (): Set<string> => new Set(client.lineages.flatMap((lineage) => [...lineage.seen.keys()]));
    await client
      .waitUntil(
        'every acknowledged MESSAGE_CREATE',
        () => {
          const ids = received();
          return acked.every(({ id }) => ids.has(id));
        },
        15_000,
      )
      .catch(() => undefined); // the assertion below names what is missing
    const frames = client.lineages.reduce(
      (sum, lineage) => sum + [...lineage.seen.values()].reduce((a, b) => a + b, 0),
      0,
    );
    const seen = received();
    const again = cluster.nodes.flatMap((node) => node.events('message_redispatched'));
    console.log(
      `      ${frames} MESSAGE_CREATE received (${seen.size} distinct; ${client.op7} op 7, ` +
        `${client.lineages.length} READY); dispatched again: ` +
        `${again.filter((entry) => entry['reason'] === 'activation').length} at activation, ` +
        `${again.filter((entry) => entry['reason'] === 'retry').length} on a nonce retry`,
    );
    assert.deepEqual(
      acked.filter((message) => !seen.has(message.id)).map((message) => message.content),
      [],
      'acknowledged messages that never reached the client',
    );
    assert.equal(client.lineages.length, 1, 'the client was never told op 9 (it resumed whatever happened)');
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
