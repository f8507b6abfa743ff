import assert from 'node:assert/strict';
import { WebhookClient } from 'discord.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, startTestServer, type TestServer } from '../../support/testServer.js';
import { fails, guildWorld, textChannel, type ApiMessage, type GuildWorld } from './messageFixtures.js';

/** GUILDS | GUILD_WEBHOOKS | GUILD_MESSAGES | MESSAGE_CONTENT. */
const INTENTS = (1 << 0) | (1 << 5) | (1 << 9) | (1 << 15);

interface ApiWebhook {
  id: string;
  type: number;
  guild_id: string;
  channel_id: string;
  name: string;
  avatar: string | null;
  token?: string;
  url?: string;
  user?: { id: string };
  application_id: null;
}

type WebhookMessage = ApiMessage & {
  webhook_id?: string;
  guild_id?: string;
  author: { id: string; username?: string; bot?: boolean };
};

describe('webhooks', function () {
  this.timeout(20_000);
  let server: TestServer;
  let world: GuildWorld;
  let channel: string;
  let gateway: GatewayClient;

  const create = (name: string, channelId = channel) =>
    api<ApiWebhook>(server.api, 'POST', `/channels/${channelId}/webhooks`, {
      token: world.owner.token,
      body: { name },
    });
  const execute = (hook: ApiWebhook, body: unknown, query = '', expect = 204) =>
    fetch(`${server.api}/webhooks/${hook.id}/${hook.token ?? ''}${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (response) => {
      assert.equal(response.status, expect, await response.clone().text());
      return response.status === 204 ? undefined : ((await response.json()) as WebhookMessage);
    });
  const byToken = (hook: ApiWebhook, method: string, suffix = '', body?: unknown, expect = 200) =>
    api(server.api, method, `/webhooks/${hook.id}/${hook.token ?? ''}${suffix}`, {
      expect,
      ...(body === undefined ? {} : { body }),
    });

  before(async () => {
    server = await startTestServer();
    world = await guildWorld(server.api);
    channel = await textChannel(server.api, world, 'hooks');
    ({ client: gateway } = await GatewayClient.identified(server.gatewayUrl, world.member.token, { intents: INTENTS }));
  });

  after(async () => {
    await gateway.close();
    await server.stop();
  });

  it('creates, lists, gets, modifies and deletes a webhook with MANAGE_WEBHOOKS', async () => {
    const from = gateway.frames.length;
    const hook = await create('Announcer');
    assert.equal(hook.type, 1);
    assert.equal(hook.channel_id, channel);
    assert.equal(hook.guild_id, world.guildId);
    assert.equal(hook.user?.id, world.owner.id);
    assert.equal(hook.application_id, null);
    assert.match(hook.token ?? '', /^[A-Za-z0-9_-]{68}$/);
    assert.equal(hook.url, `${server.node.url}/api/webhooks/${hook.id}/${hook.token ?? ''}`);
    await gateway.waitForDispatch('WEBHOOKS_UPDATE', (d: { channel_id?: string }) => d.channel_id === channel, {
      from,
    });

    const owner = { token: world.owner.token };
    const listed = await api<ApiWebhook[]>(server.api, 'GET', `/channels/${channel}/webhooks`, owner);
    assert.deepEqual(
      listed.map((h) => h.id),
      [hook.id],
    );
    const inGuild = await api<ApiWebhook[]>(server.api, 'GET', `/guilds/${world.guildId}/webhooks`, owner);
    assert.ok(inGuild.some((h) => h.id === hook.id && h.token === hook.token));
    const got = await api<ApiWebhook>(server.api, 'GET', `/webhooks/${hook.id}`, owner);
    assert.equal(got.token, hook.token);
    const renamed = await api<ApiWebhook>(server.api, 'PATCH', `/webhooks/${hook.id}`, {
      ...owner,
      body: { name: 'Herald' },
    });
    assert.equal(renamed.name, 'Herald');
    await api(server.api, 'DELETE', `/webhooks/${hook.id}`, { ...owner, expect: 204 });
    const gone = await fails(server.api, 'GET', `/webhooks/${hook.id}`, world.owner, 404);
    assert.equal(gone.code, 10_015);
  });

  it('refuses members without MANAGE_WEBHOOKS with 403 50013', async () => {
    const hook = await create('Guarded');
    for (const [method, path] of [
      ['POST', `/channels/${channel}/webhooks`],
      ['GET', `/channels/${channel}/webhooks`],
      ['GET', `/guilds/${world.guildId}/webhooks`],
      ['GET', `/webhooks/${hook.id}`],
      ['PATCH', `/webhooks/${hook.id}`],
      ['DELETE', `/webhooks/${hook.id}`],
    ] as const) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : { name: 'Mine' };
      const error = await fails(server.api, method, path, world.member, 403, body);
      assert.equal(error.code, 50_013, `${method} ${path}`);
    }
  });

  it('serves get, modify and delete by token, without the user', async () => {
    const hook = await create('Tokened');
    const got = (await byToken(hook, 'GET')) as ApiWebhook;
    assert.equal(got.id, hook.id);
    assert.equal(got.user, undefined);
    const renamed = (await byToken(hook, 'PATCH', '', { name: 'Retokened' })) as ApiWebhook;
    assert.equal(renamed.name, 'Retokened');
    const bad = await api<{ code: number }>(server.api, 'GET', `/webhooks/${hook.id}/${'x'.repeat(68)}`, {
      expect: 401,
    });
    assert.equal(bad.code, 50_027);
    await byToken(hook, 'DELETE', '', undefined, 204);
    const unknown = (await byToken(hook, 'GET', '', undefined, 404)) as { code: number };
    assert.equal(unknown.code, 10_015);
  });

  it('executes as a message by the webhook, dispatched as MESSAGE_CREATE', async () => {
    const hook = await create('Poster');
    const from = gateway.frames.length;
    assert.equal(await execute(hook, { content: 'no wait' }), undefined);
    const quiet = await gateway.waitForDispatch<WebhookMessage>('MESSAGE_CREATE', (d) => d.content === 'no wait', {
      from,
    });
    assert.equal(quiet.d.webhook_id, hook.id);
    assert.equal(quiet.d.author.username, 'Poster');

    const sent = await execute(hook, { content: 'waited', username: 'Override' }, '?wait=true', 200);
    assert.ok(sent);
    assert.equal(sent.webhook_id, hook.id);
    assert.deepEqual(sent.author, {
      id: hook.id,
      username: 'Override',
      avatar: null,
      discriminator: '0000',
      bot: true,
    });
    const event = await gateway.waitForDispatch<WebhookMessage>('MESSAGE_CREATE', (d) => d.id === sent.id, { from });
    assert.equal(event.d.webhook_id, hook.id);
    assert.equal(event.d.author.username, 'Override');
    assert.equal(event.d.guild_id, world.guildId);
    const read = await api<WebhookMessage>(server.api, 'GET', `/channels/${channel}/messages/${sent.id}`, {
      token: world.member.token,
    });
    assert.equal(read.author.id, hook.id);
  });

  it('refuses an execute with a bad token, an unknown webhook, or an empty message', async () => {
    const hook = await create('Strict');
    const badToken = await execute({ ...hook, token: 'y'.repeat(68) }, { content: 'x' }, '', 401);
    assert.equal((badToken as unknown as { code: number }).code, 50_027);
    const unknown = await execute({ ...hook, id: '1234567890123' }, { content: 'x' }, '', 404);
    assert.equal((unknown as unknown as { code: number }).code, 10_015);
    const empty = await execute(hook, { content: '' }, '', 400);
    assert.equal((empty as unknown as { code: number }).code, 50_006);
  });

  it('validates names and limits a channel to 15 webhooks', async () => {
    for (const name of ['', 'x'.repeat(81), 'my clyde', 'DiscordBot']) {
      const error = await fails(server.api, 'POST', `/channels/${channel}/webhooks`, world.owner, 400, { name });
      assert.equal(error.code, 50_035, name);
      assert.ok(error.errors?.['name'], name);
    }
    const crowded = await textChannel(server.api, world, 'crowded');
    for (let index = 0; index < 15; index += 1) await create(`hook ${index}`, crowded);
    const error = await fails(server.api, 'POST', `/channels/${crowded}/webhooks`, world.owner, 400, {
      name: 'one too many',
    });
    assert.equal(error.code, 30_007);
  });

  it('gets, edits and deletes the messages a webhook sent, and no others', async () => {
    const hook = await create('Editor');
    const sent = await execute(hook, { content: 'draft' }, '?wait=true', 200);
    assert.ok(sent);
    const from = gateway.frames.length;
    const got = (await byToken(hook, 'GET', `/messages/${sent.id}`)) as WebhookMessage;
    assert.equal(got.content, 'draft');
    const edited = (await byToken(hook, 'PATCH', `/messages/${sent.id}`, { content: 'final' })) as WebhookMessage;
    assert.equal(edited.content, 'final');
    assert.ok(edited.edited_timestamp);
    await gateway.waitForDispatch<WebhookMessage>('MESSAGE_UPDATE', (d) => d.id === sent.id && d.content === 'final', {
      from,
    });
    const other = await api<ApiMessage>(server.api, 'POST', `/channels/${channel}/messages`, {
      token: world.owner.token,
      body: { content: 'not yours' },
    });
    const refused = (await byToken(hook, 'PATCH', `/messages/${other.id}`, { content: 'mine now' }, 404)) as {
      code: number;
    };
    assert.equal(refused.code, 10_008);
    await byToken(hook, 'DELETE', `/messages/${sent.id}`, undefined, 204);
    await gateway.waitForDispatch('MESSAGE_DELETE', (d: { id?: string }) => d.id === sent.id, { from });
  });

  it('sends through a discord.js WebhookClient', async () => {
    const hook = await create('Djs');
    const client = new WebhookClient(
      { id: hook.id, token: hook.token ?? '' },
      { rest: { api: `${server.node.url}/api` } },
    );
    try {
      const message = await client.send('hi');
      assert.equal(message.content, 'hi');
      assert.equal(message.webhook_id, hook.id);
    } finally {
      client.destroy();
    }
  });
});
