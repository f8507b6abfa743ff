import assert from 'node:assert/strict';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { call, fieldCodes, type ApiApplication } from './httpClient.js';

/** An application command as these tests read it. */
interface ApiCommand {
  id: string;
  application_id: string;
  guild_id?: string;
  type: number;
  name: string;
  description: string;
  options?: unknown[];
  version: string;
  dm_permission?: boolean;
}

const ping = { name: 'ping', description: 'Ping!' };

describe('application commands over HTTP', () => {
  let server: TestServer;
  let base: string;
  let owner: TestUser;
  let stranger: TestUser;
  let applicationId: string;
  let bot: string;
  let guildId: string;

  before(async () => {
    server = await startTestServer();
    base = server.api;
    owner = await registerUser(base, 'cmdowner');
    stranger = await registerUser(base, 'cmdstranger');
    const app = await call<ApiApplication>(base, 'POST', '/applications', { auth: owner.token, body: { name: 'Cmd' } });
    applicationId = app.body.id;
    const token = await call<{ token: string }>(base, 'POST', `/applications/${applicationId}/bot`, {
      auth: owner.token,
    });
    bot = `Bot ${token.body.token}`;
    const guild = await call<{ id: string }>(base, 'POST', '/guilds', { auth: owner.token, body: { name: 'Cmds' } });
    guildId = guild.body.id;
    const added = await call(base, 'POST', `/oauth2/authorize?client_id=${applicationId}&scope=bot`, {
      auth: owner.token,
      body: { authorize: true, guild_id: guildId, permissions: '0' },
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
  });
  after(async () => server.stop());

  /** The commands path of the application (global, or of `guild`). */
  const path = (guild?: string): string =>
    guild === undefined
      ? `/applications/${applicationId}/commands`
      : `/applications/${applicationId}/guilds/${guild}/commands`;

  const overwrite = (body: unknown, guild?: string) =>
    call<ApiCommand[]>(base, 'PUT', path(guild), { auth: bot, body });

  for (const scope of ['global', 'guild'] as const) {
    it(`creates, lists, reads, edits and deletes a ${scope} command`, async () => {
      const guild = scope === 'guild' ? guildId : undefined;
      await overwrite([], guild);
      const created = await call<ApiCommand>(base, 'POST', path(guild), { auth: bot, body: ping });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.application_id, applicationId);
      assert.equal(created.body.type, 1);
      assert.equal(created.body.guild_id, guild);
      assert.equal(created.body.dm_permission, guild === undefined ? true : undefined);
      const id = created.body.id;
      const listed = await call<ApiCommand[]>(base, 'GET', path(guild), { auth: owner.token });
      assert.deepEqual(listed.body, [created.body]);
      assert.deepEqual((await call(base, 'GET', `${path(guild)}/${id}`, { auth: bot })).body, created.body);
      const edited = await call<ApiCommand>(base, 'PATCH', `${path(guild)}/${id}`, {
        auth: owner.token,
        body: { description: 'Pong?' },
      });
      assert.equal(edited.body.description, 'Pong?');
      assert.equal(edited.body.name, 'ping');
      assert.notEqual(edited.body.version, created.body.version);
      assert.equal((await call(base, 'DELETE', `${path(guild)}/${id}`, { auth: bot })).status, 204);
      const gone = await call(base, 'GET', `${path(guild)}/${id}`, { auth: bot });
      assert.equal(gone.status, 404);
      assert.equal(gone.body.code, 10_063);
    });
  }

  it('upserts a POST by name and type (200, same id)', async () => {
    await overwrite([]);
    const first = await call<ApiCommand>(base, 'POST', path(), { auth: bot, body: ping });
    const again = await call<ApiCommand>(base, 'POST', path(), { auth: bot, body: { ...ping, description: 'New' } });
    assert.equal(again.status, 200);
    assert.equal(again.body.id, first.body.id);
    assert.equal(again.body.description, 'New');
    const menu = await call<ApiCommand>(base, 'POST', path(), { auth: bot, body: { name: 'ping', type: 2 } });
    assert.equal(menu.status, 201);
    assert.equal(menu.body.description, '');
    assert.equal((await call<ApiCommand[]>(base, 'GET', path(), { auth: bot })).body.length, 2);
    const pong = await call<ApiCommand>(base, 'POST', path(), { auth: bot, body: { name: 'pong', description: 'x' } });
    const clash = await call(base, 'PATCH', `${path()}/${pong.body.id}`, { auth: bot, body: { name: 'ping' } });
    assert.equal(clash.status, 400);
    assert.deepEqual(fieldCodes(clash.body, 'name'), ['APPLICATION_COMMANDS_DUPLICATE_NAME']);
  });

  it('replaces the whole set on PUT, keeping the ids and versions of unchanged commands', async () => {
    const before = await overwrite([ping, { name: 'echo', description: 'Echo' }]);
    assert.equal(before.status, 200);
    const kept = before.body.find((command) => command.name === 'ping');
    const after = await overwrite([ping, { name: 'roll', description: 'Roll a die' }]);
    assert.deepEqual(after.body.map((command) => command.name).sort(), ['ping', 'roll']);
    assert.equal(after.body.find((command) => command.name === 'ping')?.id, kept?.id);
    assert.equal(after.body.find((command) => command.name === 'ping')?.version, kept?.version);
    const listed = await call<ApiCommand[]>(base, 'GET', path(), { auth: bot });
    assert.deepEqual(listed.body.map((command) => command.name).sort(), ['ping', 'roll']);
    assert.deepEqual((await overwrite([])).body, []);
    assert.deepEqual((await call(base, 'GET', path(), { auth: bot })).body, []);
  });

  it('refuses invalid commands with 50035 naming the field', async () => {
    const post = (body: unknown) => call(base, 'POST', path(), { auth: bot, body });
    const upper = await post({ name: 'Ping', description: 'x' });
    assert.equal(upper.status, 400);
    assert.equal(upper.body.code, 50_035);
    assert.deepEqual(fieldCodes(upper.body, 'name'), ['APPLICATION_COMMAND_INVALID_NAME']);
    assert.deepEqual(fieldCodes((await post({ name: 'a b', description: 'x' })).body, 'name'), [
      'APPLICATION_COMMAND_INVALID_NAME',
    ]);
    assert.deepEqual(fieldCodes((await post({ name: 'nodesc' })).body, 'description'), ['BASE_TYPE_REQUIRED']);
    const long = await post({ name: 'x'.repeat(33), description: 'x' });
    assert.equal(long.body.code, 50_035);
    assert.ok(long.body.errors?.['name']);
    const option = { type: 3, name: 'o', description: 'An option' };
    const many = await post({ ...ping, options: Array.from({ length: 26 }, (_, i) => ({ ...option, name: `o${i}` })) });
    assert.equal(many.status, 400);
    assert.equal(many.body.code, 50_035);
    assert.ok(many.body.errors?.['options']);
    const bulk = await call(base, 'PUT', path(), { auth: bot, body: [ping, { name: 'Bad', description: 'x' }] });
    assert.equal(bulk.status, 400);
    assert.ok((bulk.body.errors?.['1'] as Record<string, unknown> | undefined)?.['name']);
  });

  it('accepts nested sub-command options and returns them', async () => {
    const sub = { type: 1, name: 'add', description: 'Add', options: [{ type: 4, name: 'n', description: 'N' }] };
    const group = { type: 2, name: 'math', description: 'Math', options: [sub] };
    const created = await call<ApiCommand>(base, 'POST', path(), {
      auth: bot,
      body: { name: 'calc', description: 'Calculator', options: [group] },
    });
    assert.ok(created.status === 200 || created.status === 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.options, [group]);
  });

  it('answers 403 50013 to a user who neither owns the application nor is its bot, 404 10002 for none', async () => {
    const read = await call(base, 'GET', path(), { auth: stranger.token });
    assert.equal(read.status, 403);
    assert.equal(read.body.code, 50_013);
    const write = await call(base, 'POST', path(), { auth: stranger.token, body: ping });
    assert.equal(write.status, 403);
    const unknown = await call(base, 'GET', '/applications/123456789012345678/commands', { auth: owner.token });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 10_002);
  });

  it('refuses guild commands in a guild the bot is not in (50001)', async () => {
    const other = await call<{ id: string }>(base, 'POST', '/guilds', { auth: owner.token, body: { name: 'No bot' } });
    const answer = await call(base, 'GET', path(other.body.id), { auth: owner.token });
    assert.equal(answer.status, 403);
    assert.equal(answer.body.code, 50_001);
  });

  it('limits a scope to 100 CHAT_INPUT, 5 USER and 5 MESSAGE commands (30032)', async () => {
    const slash = Array.from({ length: 100 }, (_, i) => ({ name: `c${i}`, description: 'x' }));
    const menus = [2, 3].flatMap((type) => Array.from({ length: 5 }, (_, i) => ({ name: `m${i}`, type })));
    const full = await overwrite([...slash, ...menus]);
    assert.equal(full.status, 200, JSON.stringify(full.body));
    assert.equal(full.body.length, 110);
    for (const body of [
      { name: 'c100', description: 'x' },
      { name: 'm5', type: 2 },
      { name: 'm5', type: 3 },
    ]) {
      const refused = await call(base, 'POST', path(), { auth: bot, body });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.code, 30_032);
    }
    assert.equal((await call(base, 'POST', path(), { auth: bot, body: { name: 'c0', description: 'y' } })).status, 200);
    const over = await call(base, 'PUT', path(), { auth: bot, body: [...slash, { name: 'c100', description: 'x' }] });
    assert.equal(over.status, 400);
    assert.equal(over.body.code, 30_032);
    await overwrite([]);
  });
});
