import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type { ClusterNode } from '../../support/clusterHarness.js';
import { clusterPerSuite } from '../../support/clusterPerSuite.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api } from '../../support/testServer.js';
import { guildWorld, textChannel } from '../../integration/messages/messageFixtures.js';

interface Delivered {
  readonly id: string;
  readonly token: string;
  readonly application_id: string;
}

/**
 * An interaction's live state is in the Channel actor of its channel: invoked through one node's edge,
 * delivered to a bot connected to another, answered and edited through a third, and a second answer
 * through yet another edge is still refused, because every callback is an ask to that one actor.
 */
describe('cluster: an interaction invoked, answered and edited through different nodes', function () {
  this.timeout(90_000);
  const cluster = clusterPerSuite({ nodes: 3 });

  it('serializes the callbacks in one actor whichever edge they reach', async () => {
    const [a, b, c] = cluster.live() as [ClusterNode, ClusterNode, ClusterNode];
    const world = await guildWorld(a.api);
    const channelId = await textChannel(a.api, world, 'commands');
    const owner = { token: world.owner.token };
    const app = await api<{ id: string }>(a.api, 'POST', '/applications', {
      ...owner,
      body: { name: 'Spread' },
      expect: 201,
    });
    const bot = await api<{ token: string }>(a.api, 'POST', `/applications/${app.id}/bot`, owner);
    await api(a.api, 'POST', `/oauth2/authorize?client_id=${app.id}&scope=bot`, {
      ...owner,
      body: { authorize: true, guild_id: world.guildId, permissions: '0' },
    });
    const command = await api<{ id: string }>(
      b.api,
      'POST',
      `/applications/${app.id}/guilds/${world.guildId}/commands`,
      {
        token: `Bot ${bot.token}`,
        body: { name: 'spread', description: 'Across nodes' },
        expect: 201,
      },
    );
    const { client: botGateway } = await GatewayClient.identified(c.gatewayUrl, bot.token, { intents: 1 });
    const { client: userGateway } = await GatewayClient.identified(b.gatewayUrl, world.member.token);
    try {
      await api(a.api, 'POST', '/interactions', {
        token: world.member.token,
        body: {
          type: 2,
          application_id: app.id,
          channel_id: channelId,
          nonce: 'n1',
          data: { id: command.id, type: 1 },
        },
        expect: 204,
      });
      const { d: interaction } = await botGateway.waitForDispatch<Delivered>('INTERACTION_CREATE', () => true, {
        timeoutMs: 10_000,
      });
      const callback = (node: ClusterNode, body: unknown, expect: number) =>
        api<{ code?: number }>(node.api, 'POST', `/interactions/${interaction.id}/${interaction.token}/callback`, {
          body,
          expect,
        });
      await callback(b, { type: 5 }, 204);
      const twice = await callback(c, { type: 4, data: { content: 'again' } }, 400);
      assert.equal(twice.code, 40_060);
      const edited = await api<{ content: string; id: string }>(
        c.api,
        'PATCH',
        `/webhooks/${app.id}/${interaction.token}/messages/@original`,
        { body: { content: 'answered across nodes' } },
      );
      assert.equal(edited.content, 'answered across nodes');
      await userGateway.waitForDispatch('INTERACTION_SUCCESS', (d: { nonce?: string }) => d.nonce === 'n1', {
        timeoutMs: 10_000,
      });
      await userGateway.waitForDispatch(
        'MESSAGE_UPDATE',
        (d: { id?: string; content?: string }) => d.id === edited.id,
        {
          timeoutMs: 10_000,
        },
      );
      const fetched = await api<{ content: string }>(
        a.api,
        'GET',
        `/webhooks/${app.id}/${interaction.token}/messages/@original`,
      );
      assert.equal(fetched.content, 'answered across nodes');
    } finally {
      await botGateway.close();
      await userGateway.close();
    }
  });
});
