import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { hashedImageKey } from '../../../src/domain/blobKeys.js';
import { signToken } from '../../../src/domain/tokens.js';
import { FileBlobStore } from '../../../src/store/file/FileBlobStore.js';
import { createSqliteStores } from '../../../src/store/sqlite/createSqliteStores.js';
import { MIGRATIONS } from '../../../src/store/sqlite/migrations.js';
import { anApplication, aUser, nextId } from '../../contract/records.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { GatewayClient } from './gatewayClient.js';
import { call, type ApiApplication, type ApiUser } from './httpClient.js';

/** Keys Discord omits from an application object when they are unset (`key?` in its docs). */
const OPTIONAL_KEYS = ['privacy_policy_url', 'terms_of_service_url', 'tags', 'rpc_origins', 'max_participants'];
/** Keys Discord always sends, some of them null. */
const ALWAYS_SENT = ['id', 'name', 'icon', 'description', 'summary', 'bot_public', 'bot_require_code_grant'].concat([
  'verify_key',
  'flags',
  'owner',
  'team',
  'bot',
  'interactions_endpoint_url',
  'role_connections_verification_url',
]);

describe('bot user ids are application ids', () => {
  let server: TestServer;
  let base: string;
  let owner: TestUser;

  before(async () => {
    server = await startTestServer();
    base = server.api;
    owner = await registerUser(base, 'appowner');
  });
  after(async () => server.stop());

  const createAppWithBot = async (name: string): Promise<{ id: string; token: string }> => {
    const created = await call<ApiApplication>(base, 'POST', '/applications', { auth: owner.token, body: { name } });
    assert.equal(created.status, 201);
    const bot = await call<{ token: string }>(base, 'POST', `/applications/${created.body.id}/bot`, {
      auth: owner.token,
    });
    assert.equal(bot.status, 200);
    return { id: created.body.id, token: bot.body.token };
  };

  it("creates a bot whose user id is its application's id, the id its token starts with", async () => {
    const app = await createAppWithBot('Same Id');
    const me = await call<ApiUser>(base, 'GET', '/users/@me', { auth: `Bot ${app.token}` });
    assert.equal(me.body.id, app.id);
    // Discordeno's reading of a token: the first part is the base64 of the bot's (= application's) id.
    assert.equal(Buffer.from(app.token.split('.')[0] ?? '', 'base64').toString('utf8'), app.id);
    const mine = await call<ApiApplication>(base, 'GET', '/oauth2/applications/@me', { auth: `Bot ${app.token}` });
    assert.equal(mine.body.id, app.id);
    assert.equal(mine.body.bot?.id, app.id);
    const gateway = await GatewayClient.connect(server.gatewayUrl, `Bot ${app.token}`, 0);
    try {
      const ready = await gateway.waitFor<{ user: { id: string }; application: { id: string } }>('READY');
      assert.equal(ready.application.id, app.id);
      assert.equal(ready.user.id, app.id);
    } finally {
      gateway.close();
    }
  });

  it('sends the application object as Discord does: optional keys only when set', async () => {
    const app = await createAppWithBot('Shaped');
    const paths = ['/oauth2/applications/@me', '/applications/@me', `/applications/${app.id}`];
    for (const path of paths) {
      const answer = await call<Record<string, unknown>>(base, 'GET', path, { auth: `Bot ${app.token}` });
      assert.equal(answer.status, 200, path);
      for (const key of ALWAYS_SENT) assert.ok(key in answer.body, `${path} lacks ${key}`);
      for (const key of OPTIONAL_KEYS) assert.ok(!(key in answer.body), `${path} sends unset ${key}`);
      assert.equal(answer.body['summary'], '');
      assert.equal(answer.body['interactions_endpoint_url'], null);
    }
    const patched = await call<Record<string, unknown>>(base, 'PATCH', `/applications/${app.id}`, {
      auth: owner.token,
      body: { privacy_policy_url: 'https://example.test/privacy', tags: ['fun'] },
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.body['privacy_policy_url'], 'https://example.test/privacy');
    assert.deepEqual(patched.body['tags'], ['fun']);
    assert.ok(!('terms_of_service_url' in patched.body));
  });
});

describe('bot applications created before bot ids were application ids', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'chorus-legacy-bot-'));
  const secret = 'legacy-token-secret';
  const ownerRecord = aUser();
  const botRecord = aUser({ bot: true, email: null, password_hash: null, username: 'OldBot' });
  const legacy = anApplication({ owner_id: ownerRecord.id, bot_user_id: botRecord.id, icon: 'b'.repeat(32) });
  const commandId = nextId();
  const tokenOf = (userId: string) => signToken(secret, { userId, generation: 0, issuedAtMs: Date.now() });
  const botToken = `Bot ${tokenOf(botRecord.id)}`;
  const ownerToken = tokenOf(ownerRecord.id);
  let server: TestServer;
  let base: string;

  before(async () => {
    // The data of a node that ran the schema before migration 6: the bot has a user id of its own.
    const stores = createSqliteStores(join(dataDir, 'chorus.db'), {
      migrations: MIGRATIONS.filter((migration) => migration.version <= 5),
    });
    await stores.users.create(ownerRecord);
    await stores.users.create(botRecord);
    await stores.applications.create(legacy);
    const command = { id: commandId, application_id: legacy.id, version: commandId, type: 1, name: 'ping' };
    await stores.applicationCommands.save({ id: commandId, application_id: legacy.id, scope: '0', data: command });
    await stores.close();
    const icon = hashedImageKey('app-icons', legacy.id, legacy.icon ?? '');
    await new FileBlobStore(join(dataDir, 'blobs')).put(icon, Buffer.from('icon'), 'image/png');
    server = await startTestServer({ CHORUS_DATA_DIR: dataDir, CHORUS_TOKEN_SECRET: secret });
    base = server.api;
  });
  after(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the bot token issued before the migration working', async () => {
    const me = await call<ApiUser>(base, 'GET', '/users/@me', { auth: botToken });
    assert.equal(me.status, 200);
    assert.equal(me.body.id, botRecord.id);
  });

  it("answers the bot's application under the bot's user id, and no longer under the old id", async () => {
    const mine = await call<ApiApplication>(base, 'GET', '/oauth2/applications/@me', { auth: botToken });
    assert.equal(mine.body.id, botRecord.id);
    assert.equal(mine.body.bot?.id, botRecord.id);
    assert.equal((await call(base, 'GET', `/applications/${botRecord.id}`, { auth: ownerToken })).status, 200);
    const old = await call(base, 'GET', `/applications/${legacy.id}`, { auth: ownerToken });
    assert.equal(old.status, 404);
    assert.equal(old.body.code, 10_002);
  });

  it('serves its commands and its icon under the new id', async () => {
    const commands = await call<{ id: string; application_id: string }[]>(
      base,
      'GET',
      `/applications/${botRecord.id}/commands`,
      { auth: botToken },
    );
    assert.equal(commands.status, 200);
    assert.deepEqual(
      commands.body.map((command) => [command.id, command.application_id]),
      [[commandId, botRecord.id]],
    );
    const icon = await fetch(`${server.node.url}/app-icons/${botRecord.id}/${legacy.icon ?? ''}.png`);
    assert.equal(icon.status, 200);
    assert.equal(await icon.text(), 'icon');
  });

  it('lets the owner reset the bot token through the new id', async () => {
    const reset = await call<{ token: string }>(base, 'POST', `/applications/${botRecord.id}/bot/reset`, {
      auth: ownerToken,
    });
    assert.equal(reset.status, 200);
    assert.equal((await call(base, 'GET', '/users/@me', { auth: `Bot ${reset.body.token}` })).status, 200);
    assert.equal((await call(base, 'GET', '/users/@me', { auth: botToken })).status, 401);
  });
});
