import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type { ClusterNode } from '../../support/clusterHarness.js';
import { clusterPerSuite } from '../../support/clusterPerSuite.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { registerUser, type TestUser } from '../../support/testServer.js';
import { createGuild, joinGuild, type TestGuild } from '../../integration/gateway/gatewayFixtures.js';

const PLACEMENT_ATTEMPTS = 20;

interface Presence {
  user: { id: string };
  guild_id: string;
  status: string;
}

/**
 * Presence lives with the User actor and reaches the Guild through the router: here the user's actor,
 * the guild's actor and the two gateway edges the clients use are spread over node processes.
 */
describe('cluster: presence crosses nodes', function () {
  this.timeout(90_000);
  const open: GatewayClient[] = [];
  const cluster = clusterPerSuite(
    { nodes: 3 },
    {
      tearDown: () => Promise.all(open.map((client) => client.drop())),
    },
  );

  it('tells a member on another edge of a user on a third node going idle, dnd and offline', async () => {
    const [first, second, third] = cluster.live() as [ClusterNode, ClusterNode, ClusterNode];
    const watcher = await registerUser(first.api, 'watcher');
    let guild: TestGuild | undefined;
    let mover: TestUser | undefined;
    for (let attempt = 0; attempt < PLACEMENT_ATTEMPTS && mover === undefined; attempt += 1) {
      const candidateGuild = await createGuild(first.api, watcher.token, 'presence');
      const candidate = await registerUser(first.api, 'mover');
      const [guildNode, userNode] = await Promise.all([
        cluster.ownerOf(`guild:${candidateGuild.id}`),
        cluster.ownerOf(`user:${candidate.id}`),
      ]);
      if (guildNode !== userNode) [guild, mover] = [candidateGuild, candidate];
    }
    assert.ok(guild && mover, 'a user whose actor lives on another node than the guild’s');
    await joinGuild(first.api, watcher.token, guild.channelId, mover.token);

    const { client: watching } = await GatewayClient.identified(second.gatewayUrl, watcher.token);
    open.push(watching);
    const { client: moving } = await GatewayClient.identified(third.gatewayUrl, mover.token, {
      presence: { status: 'idle', since: 0, afk: false, activities: [] },
    });
    open.push(moving);
    const moverId = mover.id;
    const of = (status: string) => (d: Presence) => d.user.id === moverId && d.status === status;
    const idle = await watching.waitForDispatch<Presence>('PRESENCE_UPDATE', of('idle'), { timeoutMs: 15_000 });
    assert.equal(idle.d.guild_id, guild.id);
    moving.send(3, { status: 'dnd', since: null, afk: false, activities: [] });
    await watching.waitForDispatch<Presence>('PRESENCE_UPDATE', of('dnd'), { timeoutMs: 15_000 });
    await moving.close(1000);
    await watching.waitForDispatch<Presence>('PRESENCE_UPDATE', of('offline'), { timeoutMs: 15_000 });
  });
});
