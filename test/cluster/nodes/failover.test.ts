import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, afterEach, before, describe, it } from 'mocha';
import { startCluster, type ClusterNode, type TestCluster } from '../../support/clusterHarness.js';
import { registerUser, type TestUser } from '../../support/testServer.js';
import { createGuild, joinGuild, type TestGuild } from '../../integration/gateway/gatewayFixtures.js';
import { assertAllAckedOnceInOrder, Poster, readAllMessages, type MessageJson } from './clusterFixtures.js';

/** The target: every key a killed node owned is served again within this. */
const FAILOVER_TARGET_MS = 5_000;

describe('cluster: kill -9 of the node hosting a busy channel', function () {
  this.timeout(60_000);
  let cluster: TestCluster;
  let owner: TestUser;
  let guild: TestGuild;
  let victim: ClusterNode;
  let posters: Poster[];
  let stored: MessageJson[];
  let killedAt = 0;

  before(async function () {
    this.timeout(150_000);
    cluster = await startCluster({ nodes: 3 });
    const [first, second, third] = cluster.nodes as [ClusterNode, ClusterNode, ClusterNode];
    owner = await registerUser(first.api, 'owner');
    guild = await createGuild(second.api, owner.token, 'busy');
    const members = [owner, await registerUser(second.api, 'poster'), await registerUser(third.api, 'poster')];
    for (const member of members.slice(1)) await joinGuild(third.api, owner.token, guild.channelId, member.token);

    victim = await cluster.ownerOf(`channel:${guild.channelId}`);
    const survivors = cluster.nodes.filter((node) => node !== victim);
    // Three clients post through the surviving nodes only; the channel's actor runs on the victim.
    posters = members.map(
      (member, index) =>
        new Poster(`c${index + 1}`, member.token, guild.channelId, { nodes: () => survivors, start: index }),
    );
    for (const poster of posters) poster.start();
    await Promise.all(posters.map((poster) => poster.waitUntil('3 messages before the kill', (p) => p.acked.length >= 3, 20_000)));

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
  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(`node logs:\n${cluster.logTails(25)}`);
  });
  after(async () => {
    await Promise.allSettled((posters ?? []).map((poster) => poster.stop()));
    await cluster?.after();
  });

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
    const recovered = Math.min(...after.map((message) => message.ackedAt));
    const gap = recovered - killedAt;
    console.log(`      failover gap: ${Math.round(gap)} ms from SIGKILL to the first acknowledged request`);
    assert.ok(gap < FAILOVER_TARGET_MS, `failover took ${Math.round(gap)} ms`);
  });
});
