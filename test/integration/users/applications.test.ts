import assert from 'node:assert/strict';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { call, waitFor, type ApiApplication, type ApiGuildSummary, type ApiUser } from './httpClient.js';

/** GET /oauth2/authorize, as far as these tests read it. */
interface ApiAuthorization {
  application: ApiApplication;
  bot?: ApiUser;
  user: ApiUser;
  guilds: { id: string; permissions: string }[];
}

describe('applications, bots and OAuth2 over HTTP', () => {
  let server: TestServer;
  let base: string;
  let owner: TestUser;
  let stranger: TestUser;

  before(async () => {
    server = await startTestServer();
    base = server.api;
    owner = await registerUser(base, 'owner');
    stranger = await registerUser(base, 'stranger');
  });
  after(async () => server.stop());

  const createApp = async (name: string): Promise<string> => {
    const created = await call<ApiApplication>(base, 'POST', '/applications', { auth: owner.token, body: { name } });
    assert.equal(created.status, 201);
    return created.body.id;
  };
  const createBot = async (applicationId: string): Promise<string> =>
    (await call<{ token: string }>(base, 'POST', `/applications/${applicationId}/bot`, { auth: owner.token })).body
      .token;
  const guildsOf = async (auth: string): Promise<ApiGuildSummary[]> =>
    (await call<ApiGuildSummary[]>(base, 'GET', '/users/@me/guilds', { auth })).body;

  it('creates, lists, reads and edits an application as its owner', async () => {
    const created = await call<ApiApplication>(base, 'POST', '/applications', {
      auth: owner.token,
      body: { name: 'Helper' },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.name, 'Helper');
    assert.equal(created.body.owner?.id, owner.id);
    assert.equal(created.body.bot_public, true);
    assert.match(created.body.verify_key, /^[0-9a-f]{64}$/);
    const list = await call<ApiApplication[]>(base, 'GET', '/applications', { auth: owner.token });
    assert.ok(list.body.some((app) => app.id === created.body.id));
    const patched = await call<ApiApplication>(base, 'PATCH', `/applications/${created.body.id}`, {
      auth: owner.token,
      body: { description: 'helps', bot_public: false },
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.description, 'helps');
    assert.equal(patched.body.bot_public, false);
  });

  it('hides another user’s application (404 10002) and refuses to edit it', async () => {
    const id = await createApp('Mine');
    const read = await call(base, 'GET', `/applications/${id}`, { auth: stranger.token });
    assert.equal(read.status, 404);
    assert.equal(read.body.code, 10_002);
    const edit = await call(base, 'PATCH', `/applications/${id}`, { auth: stranger.token, body: { name: 'Stolen' } });
    assert.equal(edit.status, 404);
    assert.equal((await call(base, 'POST', `/applications/${id}/bot`, { auth: stranger.token })).status, 404);
    assert.equal((await call(base, 'POST', `/applications/${id}/bot/reset`, { auth: stranger.token })).status, 404);
    const unchanged = await call<ApiApplication>(base, 'GET', `/applications/${id}`, { auth: owner.token });
    assert.equal(unchanged.body.name, 'Mine');
  });

  it('refuses an application without a name, naming the field', async () => {
    const answer = await call(base, 'POST', '/applications', { auth: owner.token, body: {} });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.code, 50_035);
    assert.ok(answer.body.errors?.['name']);
  });

  it('creates a bot whose token works, and a reset revokes the old token', async () => {
    const id = await createApp('Robo');
    const firstToken = await createBot(id);
    const me = await call<ApiUser>(base, 'GET', '/users/@me', { auth: `Bot ${firstToken}` });
    assert.equal(me.status, 200);
    assert.equal(me.body.bot, true);
    assert.equal(me.body.username, 'Robo');

    const mine = await call<ApiApplication>(base, 'GET', '/oauth2/applications/@me', { auth: `Bot ${firstToken}` });
    assert.equal(mine.status, 200);
    assert.equal(mine.body.id, id);
    assert.equal(mine.body.bot?.id, me.body.id);
    assert.equal(mine.body.owner?.id, owner.id);

    assert.equal((await call(base, 'POST', `/applications/${id}/bot`, { auth: owner.token })).status, 400);

    const reset = await call<{ token: string }>(base, 'POST', `/applications/${id}/bot/reset`, { auth: owner.token });
    assert.equal(reset.status, 200);
    assert.equal((await call(base, 'GET', '/users/@me', { auth: `Bot ${firstToken}` })).status, 401);
    assert.equal((await call(base, 'GET', '/users/@me', { auth: `Bot ${reset.body.token}` })).status, 200);

    const renamed = await call<ApiUser>(base, 'PATCH', `/applications/${id}/bot`, {
      auth: owner.token,
      body: { username: 'Robo Two' },
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.username, 'Robo Two');
    const denied = await call(base, 'PATCH', `/applications/${id}/bot`, {
      auth: stranger.token,
      body: { username: 'Mine now' },
    });
    assert.equal(denied.status, 404);
  });

  it('refuses bots the user-only routes', async () => {
    const token = await createBot(await createApp('NoFriends'));
    const apps = await call(base, 'POST', '/applications', { auth: `Bot ${token}`, body: { name: 'x' } });
    assert.equal(apps.status, 403);
    assert.equal(apps.body.code, 20_001);
    const friend = await call(base, 'PUT', `/users/@me/relationships/${owner.id}`, { auth: `Bot ${token}`, body: {} });
    assert.equal(friend.status, 403);
  });

  it('describes an OAuth2 bot authorization and answers unknown applications with 10002', async () => {
    const id = await createApp('Invitable');
    await createBot(id);
    const view = await call<ApiAuthorization>(base, 'GET', `/oauth2/authorize?client_id=${id}&scope=bot`, {
      auth: stranger.token,
    });
    assert.equal(view.status, 200);
    assert.equal(view.body.application.id, id);
    assert.equal(view.body.bot?.username, 'Invitable');
    assert.equal(view.body.user.id, stranger.id);
    assert.deepEqual(view.body.guilds, []);
    const unknown = await call(base, 'GET', '/oauth2/authorize?client_id=123456789012345678', { auth: stranger.token });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 10_002);
    assert.equal((await call(base, 'GET', '/oauth2/authorize', { auth: stranger.token })).body.code, 50_035);
  });

  it('adds a bot to a guild the caller manages, and not to one it is merely in or not in', async () => {
    const id = await createApp('Joiner');
    const token = await createBot(id);
    const guild = await call<{ id: string }>(base, 'POST', '/guilds', { auth: owner.token, body: { name: 'Home' } });
    assert.equal(guild.status, 201, JSON.stringify(guild.body));
    const guildId = guild.body.id;

    const view = await call<ApiAuthorization>(base, 'GET', `/oauth2/authorize?client_id=${id}&scope=bot`, {
      auth: owner.token,
    });
    assert.deepEqual(
      view.body.guilds.map((g) => g.id),
      [guildId],
    );
    const listed = await guildsOf(owner.token);
    assert.equal(listed[0]?.id, guildId);
    assert.equal(listed[0]?.owner, true);

    const authorize = { authorize: true, guild_id: guildId, permissions: '0' };
    const outsider = await call(base, 'POST', `/oauth2/authorize?client_id=${id}&scope=bot`, {
      auth: stranger.token,
      body: authorize,
    });
    assert.equal(outsider.status, 404);
    const channels = await call<{ id: string; type: number }[]>(base, 'GET', `/guilds/${guildId}/channels`, {
      auth: owner.token,
    });
    const text = channels.body.find((channel) => channel.type === 0);
    const invite = await call<{ code: string }>(base, 'POST', `/channels/${text?.id ?? ''}/invites`, {
      auth: owner.token,
      body: {},
    });
    assert.equal((await call(base, 'POST', `/invites/${invite.body.code}`, { auth: stranger.token })).status, 200);
    const member = await call(base, 'POST', `/oauth2/authorize?client_id=${id}&scope=bot`, {
      auth: stranger.token,
      body: authorize,
    });
    assert.equal(member.status, 403);

    const added = await call<{ location: string }>(base, 'POST', `/oauth2/authorize?client_id=${id}&scope=bot`, {
      auth: owner.token,
      body: { authorize: true, guild_id: guildId, permissions: '8' },
    });
    assert.equal(added.status, 200);
    assert.match(added.body.location, /\/oauth2\/authorized$/);
    const botMe = await call<ApiUser>(base, 'GET', '/users/@me', { auth: `Bot ${token}` });
    const botMember = await call(base, 'GET', `/guilds/${guildId}/members/${botMe.body.id}`, { auth: owner.token });
    assert.equal(botMember.status, 200);

    const ownMember = await call<{ user?: ApiUser }>(base, 'GET', `/users/@me/guilds/${guildId}/member`, {
      auth: `Bot ${token}`,
    });
    assert.equal(ownMember.body.user?.id, botMe.body.id);
    const botGuilds = await waitFor(async () => {
      const list = await guildsOf(`Bot ${token}`);
      return list.length > 0 ? list : undefined;
    });
    assert.equal(botGuilds[0]?.id, guildId);
    assert.equal(botGuilds[0]?.owner, false);

    const ownerLeaves = await call(base, 'DELETE', `/users/@me/guilds/${guildId}`, { auth: owner.token });
    assert.equal(ownerLeaves.status, 400);
    assert.equal(ownerLeaves.body.code, 50_055);
    const botLeaves = await call(base, 'DELETE', `/users/@me/guilds/${guildId}`, { auth: `Bot ${token}` });
    assert.equal(botLeaves.status, 204);
    await waitFor(async () => ((await guildsOf(`Bot ${token}`)).length === 0 ? true : undefined));
  });

  it('refreshes the member snapshot in every guild when a user renames', async () => {
    const guild = await call<{ id: string }>(base, 'POST', '/guilds', { auth: owner.token, body: { name: 'Names' } });
    const renamed = await call(base, 'PATCH', '/users/@me', { auth: owner.token, body: { username: 'owner renamed' } });
    assert.equal(renamed.status, 200);
    await waitFor(async () => {
      const member = await call<{ user?: ApiUser }>(base, 'GET', `/guilds/${guild.body.id}/members/${owner.id}`, {
        auth: owner.token,
      });
      return member.body.user?.username === 'owner renamed' ? true : undefined;
    });
  });
});
