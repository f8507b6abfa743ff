import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'mocha';
import { CLUSTER_TIMING, pause, type ClusterNode } from '../../support/clusterHarness.js';
import { clusterPerSuite } from '../../support/clusterPerSuite.js';
import { registerUser, type TestUser } from '../../support/testServer.js';
import { createGuild, joinGuild, type TestGuild } from '../../integration/gateway/gatewayFixtures.js';
import { assertAllAckedOnceInOrder, Poster, readAllMessages, request, type Outcome } from './clusterFixtures.js';

/** Long enough for the paused node's lease to lapse and for it to leave the others' view. */
const PAUSE_AT_LEAST_MS =
  Number(CLUSTER_TIMING.CHORUS_LEASE_TTL_MS) + Number(CLUSTER_TIMING.CHORUS_MEMBER_TTL_MS) + 1_000;

/** One request the paused node itself took, without retries: what was sent and what came back. */
interface StaleRequest {
  readonly what: string;
  readonly content: string;
  readonly outcome: Outcome;
}

describe('cluster: fencing a node paused past its lease (SIGSTOP, then SIGCONT)', function () {
  this.timeout(90_000);
  let direct: TestUser;
  let guild: TestGuild;
  let stale: ClusterNode;
  let others: ClusterNode[];
  let posters: Poster[] = [];

  const cluster = clusterPerSuite(
    { nodes: 3 },
    {
      logLines: 30,
      setUp: async () => {
        const [first, second, third] = cluster.nodes as [ClusterNode, ClusterNode, ClusterNode];
        const owner = await registerUser(first.api, 'owner');
        guild = await createGuild(second.api, owner.token, 'fenced');
        const poster = await registerUser(third.api, 'poster');
        direct = await registerUser(third.api, 'direct');
        for (const member of [poster, direct]) await joinGuild(first.api, owner.token, guild.channelId, member.token);
        // A guild channel runs on its guild's node (placement by guild).
        stale = await cluster.ownerOf(`guild:${guild.id}`);
        others = cluster.nodes.filter((node) => node !== stale);
        // Two clients post through the other nodes before, during and after the pause.
        posters = [owner, poster].map(
          (member, index) =>
            new Poster(`c${index + 1}`, member.token, guild.channelId, { nodes: () => others, start: index }),
        );
      },
      tearDown: async () => {
        if (stale?.alive) stale.kill('SIGCONT');
        await Promise.allSettled(posters.map((poster) => poster.stop()));
      },
    },
  );

  it('refuses the paused owner’s stale writes after SIGCONT; nothing acknowledged is lost or duplicated', async () => {
    const actor = `channel:${guild.channelId}`;
    const ackedSince = (poster: Poster, at: number): number =>
      poster.acked.filter((message) => message.sentAt > at).length;
    for (const poster of posters) poster.start();
    await Promise.all(posters.map((poster) => poster.waitUntil('2 messages', (p) => p.acked.length >= 2, 20_000)));

    // The stale owner's own requests: a burst, paused as soon as the first is answered (so the
    // next ones are in their turn or queued behind it), and one sent while it is stopped (the
    // kernel accepts the connection; the request waits in its buffer).
    const post = (what: string, content: string): Promise<StaleRequest> =>
      request(stale.api, 'POST', `/channels/${guild.channelId}/messages`, {
        token: direct.token,
        body: { content, nonce: content, enforce_nonce: true },
        timeoutMs: 60_000,
      }).then((outcome) => ({ what, content, outcome }));
    const burst = Array.from({ length: 6 }, (_, index) => post('burst', `s-${index + 1}`));
    await Promise.race(burst);
    stale.kill('SIGSTOP');
    const stoppedAt = performance.now();
    const late = post('sent while stopped', 's-late');

    // The others drop it from their view; the channel re-activates on another node and takes writes.
    await cluster.waitForMembers(others, 15_000);
    const successor = await cluster.ownerOf(`guild:${guild.id}`, others[0]);
    assert.notEqual(successor, stale);
    await Promise.all(
      posters.map((poster) =>
        poster.waitUntil('3 messages sent during the pause', (p) => ackedSince(p, stoppedAt) >= 3, 30_000),
      ),
    );
    // The pause must outlast the lease and the membership ttl, whatever the clients saw.
    await pause(PAUSE_AT_LEAST_MS - (performance.now() - stoppedAt));
    const pausedMs = performance.now() - stoppedAt;

    stale.kill('SIGCONT');
    const contAt = performance.now();
    const staleRequests = await Promise.all([...burst, late]);
    // It rejoins (same incarnation) and the channel may move back to it under the new view.
    await cluster.waitForMembers(cluster.nodes, 20_000);
    await Promise.all(
      posters.map((poster) =>
        poster.waitUntil('3 messages sent after the SIGCONT', (p) => ackedSince(p, contAt) >= 3, 30_000),
      ),
    );
    await Promise.all(posters.map((poster) => poster.stop()));
    const stored = await readAllMessages(others[0]!, direct.token, guild.channelId);

    // The stale node noticed it was deposed before anything else: its lease on the channel is lost.
    const deposed = stale.events('lease_lost').filter((entry) => entry['actor'] === actor);
    const warnings = stale.logs.filter(
      (entry) => typeof entry !== 'string' && entry.level !== 'info' && JSON.stringify(entry).includes(actor),
    );
    console.log(`      paused ${stale.name} for ${Math.round(pausedMs)} ms; the channel moved to ${successor.name}`);
    for (const { what, content, outcome } of staleRequests) {
      const copies = stored.filter((message) => message.content === content).length;
      console.log(`      ${what} ${content}: ${outcome.status} ${outcome.body.slice(0, 140)} (stored ×${copies})`);
    }
    for (const entry of warnings) console.log(`      [${stale.name}] ${JSON.stringify(entry).slice(0, 220)}`);
    assert.ok(deposed.length > 0, `${stale.name} logs lease_lost for ${actor}`);
    // The deposed activation still had a write pending (last_message_id, flushed 1 s after each of
    // the posts it took): the fence refused it, and the node says so.
    const refused = warnings.filter(
      (entry) =>
        typeof entry !== 'string' && (entry['err'] as { name?: string } | undefined)?.name === 'WrongOwnerError',
    );
    assert.ok(refused.length > 0, `${stale.name} logs a write of ${actor} refused with WrongOwnerError`);

    // Every request the stale node took either failed or, if acknowledged, is stored exactly once.
    for (const { content, outcome } of staleRequests) {
      const copies = stored.filter((message) => message.content === content);
      assert.ok(copies.length <= 1, `${content} is stored at most once`);
      if (outcome.status === 200) {
        assert.equal(copies[0]?.id, (JSON.parse(outcome.body) as { id: string }).id, `${content} is stored`);
      } else {
        assert.ok(outcome.status >= 500 || outcome.status === 0, `${content} fails with 5xx: ${outcome.status}`);
      }
    }
    // And the clients of the other nodes lost nothing, in order, without duplicates.
    assertAllAckedOnceInOrder(
      stored,
      posters.flatMap((poster) => poster.acked),
    );
    const sent = new Set([
      ...posters.flatMap((p) => p.acked.map((m) => m.content)),
      ...staleRequests.map((r) => r.content),
    ]);
    assert.deepEqual(
      stored.filter((message) => !sent.has(message.content)).map((message) => message.content),
      [],
    );
  });
});
