import assert from 'node:assert/strict';
import { GatewayClient } from '../../support/GatewayClient.js';
import { startInteractionsEndpoint, type InteractionsEndpoint } from '../../support/interactionsEndpoint.js';
import { api, startTestServer, type TestServer } from '../../support/testServer.js';
import { guildWorld, textChannel, type ApiMessage, type GuildWorld } from '../messages/messageFixtures.js';

interface SentInteraction {
  readonly id: string;
  readonly type: number;
  readonly token: string;
  readonly application_id: string;
  readonly channel_id: string;
  readonly data: { name: string };
  readonly member: { user: { id: string }; permissions: string };
}

describe('interactions delivered to an HTTP endpoint', function () {
  this.timeout(30_000);
  let server: TestServer;
  let world: GuildWorld;
  let channelId: string;
  let applicationId: string;
  let commandId: string;
  let endpoint: InteractionsEndpoint;
  let user: GatewayClient;

  const invoke = (nonce: string) =>
    api(server.api, 'POST', '/interactions', {
      token: world.member.token,
      body: {
        type: 2,
        application_id: applicationId,
        channel_id: channelId,
        guild_id: world.guildId,
        nonce,
        data: { id: commandId, name: 'hello', type: 1 },
      },
      expect: 204,
    });

  before(async () => {
    server = await startTestServer({ CHORUS_OUTBOUND_ALLOW_PRIVATE: 'loopback' });
    world = await guildWorld(server.api);
    channelId = await textChannel(server.api, world, 'http-commands');
    const owner = { token: world.owner.token };
    const app = await api<{ id: string; verify_key: string }>(server.api, 'POST', '/applications', {
      ...owner,
      body: { name: 'Hooked' },
      expect: 201,
    });
    applicationId = app.id;
    const bot = await api<{ token: string }>(server.api, 'POST', `/applications/${app.id}/bot`, owner);
    await api(server.api, 'POST', `/oauth2/authorize?client_id=${app.id}&scope=bot`, {
      ...owner,
      body: { authorize: true, guild_id: world.guildId, permissions: '0' },
    });
    const fresh = await api<{ verify_key: string }>(server.api, 'GET', `/applications/${app.id}`, owner);
    endpoint = await startInteractionsEndpoint(fresh.verify_key);
    await api(server.api, 'PATCH', `/applications/${app.id}`, {
      ...owner,
      body: { interactions_endpoint_url: endpoint.url },
    });
    const command = await api<{ id: string }>(
      server.api,
      'POST',
      `/applications/${app.id}/guilds/${world.guildId}/commands`,
      { token: `Bot ${bot.token}`, body: { name: 'hello', description: 'Says hello' }, expect: 201 },
    );
    commandId = command.id;
    ({ client: user } = await GatewayClient.identified(server.gatewayUrl, world.member.token));
  });

  after(async () => {
    await user?.close();
    await endpoint?.close();
    await server?.stop();
  });

  it('posts the interaction signed (verified by discord-interactions) and takes the answer as the response', async () => {
    endpoint.mode = 'verifying';
    endpoint.respond = (interaction) => ({
      type: 4,
      data: { content: `hello from ${(interaction as SentInteraction).data.name}` },
    });
    const from = user.frames.length;
    await invoke('http-1');
    const created = await user.waitForDispatch<ApiMessage & { interaction_metadata?: { id: string } }>(
      'MESSAGE_CREATE',
      (d) => d.content === 'hello from hello',
      { from },
    );
    const delivered = endpoint.received.find((request) => (JSON.parse(request.body) as { type: number }).type === 2);
    assert.ok(delivered, 'the endpoint got the interaction');
    assert.equal(delivered.verified, true);
    const sent = JSON.parse(delivered.body) as SentInteraction;
    assert.equal(sent.application_id, applicationId);
    assert.equal(sent.channel_id, channelId);
    assert.equal(sent.member.user.id, world.member.id);
    assert.equal(created.d.interaction_metadata?.id, sent.id);
    await user.waitForDispatch('INTERACTION_SUCCESS', (d: { nonce?: string }) => d.nonce === 'http-1', { from });
  });

  it('tells the invoker the interaction failed when the endpoint does not answer', async () => {
    endpoint.mode = 'silent';
    const from = user.frames.length;
    await invoke('http-2');
    await user.waitForDispatch('INTERACTION_FAILURE', (d: { nonce?: string }) => d.nonce === 'http-2', {
      from,
      timeoutMs: 10_000,
    });
  });
});
