import assert from 'node:assert/strict';
import { ChannelType, Client, Events, GatewayIntentBits } from 'discord.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { solidPng } from '../../../src/http/solidPng.js';
import { call, type ApiApplication, type ApiChannel } from './httpClient.js';

describe('accounts and applications through discord.js', function () {
  this.timeout(30_000);
  let server: TestServer;
  let owner: TestUser;
  let applicationId: string;
  let client: Client;

  before(async () => {
    server = await startTestServer();
    owner = await registerUser(server.api, 'djsowner');
    const app = await call<ApiApplication>(server.api, 'POST', '/applications', {
      auth: owner.token,
      body: { name: 'Djs Bot' },
    });
    applicationId = app.body.id;
    const bot = await call<{ token: string }>(server.api, 'POST', `/applications/${applicationId}/bot`, {
      auth: owner.token,
    });
    client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.DirectMessages],
      // Chorus serves Discord's CDN paths itself, so image URLs discord.js builds point at it too.
      rest: { api: `${server.node.url}/api`, cdn: server.node.url },
    });
    const ready = new Promise<void>((resolve) => {
      client.once(Events.ClientReady, () => {
        resolve();
      });
    });
    await client.login(bot.body.token);
    await ready;
  });

  after(async () => {
    await client.destroy();
    await server.stop();
  });

  it('fetches the bot’s application with its owner', async () => {
    const application = await client.application?.fetch();
    assert.equal(application?.id, applicationId);
    assert.equal(application?.name, 'Djs Bot');
    assert.equal(application?.owner?.id, owner.id);
  });

  it('fetches a user and opens a DM with it, the same channel the user sees', async () => {
    const user = await client.users.fetch(owner.id);
    assert.equal(user.username, owner.username);
    assert.equal(user.bot, false);
    const dm = await user.createDM();
    assert.equal(dm.type, ChannelType.DM);
    const fromUser = await call<ApiChannel>(server.api, 'POST', '/users/@me/channels', {
      auth: owner.token,
      body: { recipients: [client.user?.id] },
    });
    assert.equal(fromUser.body.id, dm.id);
  });

  it('renames the bot through PATCH /users/@me', async () => {
    const renamed = await client.user?.setUsername('Djs Renamed');
    assert.equal(renamed?.username, 'Djs Renamed');
  });

  it('sets the bot avatar, served at the URL displayAvatarURL() builds', async () => {
    const png = solidPng(8, 8, { r: 200, g: 10, b: 10 });
    const me = await client.user?.setAvatar(png);
    const url = me?.displayAvatarURL({ size: 128 });
    assert.ok(url !== undefined && url.startsWith(`${server.node.url}/avatars/${me?.id}/${me?.avatar}.`), url);
    const response = await fetch(url);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), png);
  });

  it('registers slash commands with commands.set() and fetches them back', async () => {
    const commands = client.application?.commands;
    assert.ok(commands);
    const set = await commands.set([{ name: 'ping', description: 'Ping!' }]);
    assert.deepEqual(
      set.map((command) => command.name),
      ['ping'],
    );
    const fetched = await commands.fetch();
    assert.equal(fetched.size, 1);
    const ping = fetched.first();
    assert.equal(ping?.name, 'ping');
    assert.equal(ping?.description, 'Ping!');
    assert.equal(ping?.applicationId, applicationId);
    assert.equal(ping?.id, set.first()?.id);
  });
});
