import assert from 'node:assert/strict';
import { createGuild } from '../integration/guilds/guildKit.js';
import { api, registerUser, startTestServer, type TestServer, type TestUser } from '../support/testServer.js';
import { attempt, createBot, refused, type TestBot } from './accessRulesKit.js';

const BOTS_CANNOT = 20_001;
/** A body no schema accepts: each route must refuse the bot before it reads it. */
const INVALID = [42];

describe('security: bots are refused on routes Discord keeps for people (403 20001)', () => {
  let server: TestServer;
  let base: string;
  let person: TestUser;
  let friend: TestUser;
  let bot: TestBot;
  let guildId: string;
  let channelId: string;
  let groupDmId: string;

  before(async () => {
    server = await startTestServer();
    base = server.api;
    person = await registerUser(base, 'person');
    friend = await registerUser(base, 'friend');
    bot = await createBot(base, person.token, 'refusedbot');
    const target = await createGuild(base, person, 'People');
    guildId = target.guild.id;
    channelId = target.textChannelId;
    const group = await api<{ id: string }>(base, 'POST', '/users/@me/channels', {
      token: person.token,
      body: { recipients: [friend.id, bot.id] },
    });
    groupDmId = group.id;
  });

  after(async () => {
    await server.stop();
  });

  /** Routes (method, path, body) a bot must not use; `body` is what a person's client might send. */
  const peopleOnly = (): [string, string, unknown][] => [
    ['GET', '/users/@me/relationships', undefined],
    ['POST', '/users/@me/relationships', INVALID],
    ['PUT', `/users/@me/relationships/${friend.id}`, INVALID],
    ['DELETE', `/users/@me/relationships/${friend.id}`, undefined],
    ['GET', `/users/@me/notes/${friend.id}`, undefined],
    ['PUT', `/users/@me/notes/${friend.id}`, INVALID],
    ['GET', '/users/@me/settings', undefined],
    ['PATCH', '/users/@me/settings', INVALID],
    ['GET', `/users/@me/guilds/${guildId}/settings`, undefined],
    ['PATCH', `/users/@me/guilds/${guildId}/settings`, INVALID],
    ['GET', '/users/@me/guilds/@me/settings', undefined],
    ['POST', '/users/@me/mfa/totp/enable', INVALID],
    ['POST', '/users/@me/mfa/totp/disable', INVALID],
    ['POST', '/users/@me/mfa/codes', INVALID],
    ['POST', '/users/@me/mfa/codes-verification', INVALID],
    ['POST', '/users/@me/disable', INVALID],
    ['POST', '/users/@me/delete', INVALID],
    ['PATCH', '/users/@me/profile', INVALID],
    ['GET', `/users/${friend.id}/relationships`, undefined],
    ['POST', '/users/@me/channels', { recipients: [friend.id, person.id] }],
    ['POST', '/users/@me/channels', { access_tokens: ['not-a-token'], nicks: {} }],
    ['PUT', `/channels/${groupDmId}/recipients/${friend.id}`, INVALID],
    ['POST', '/invites/NoSuchInvite1', INVALID],
    ['POST', '/read-states/ack-bulk', INVALID],
    ['POST', `/channels/${channelId}/messages/${channelId}/ack`, INVALID],
    ['POST', '/applications', INVALID],
    ['GET', `/oauth2/authorize?client_id=${bot.applicationId}&scope=bot`, undefined],
    ['POST', `/oauth2/authorize?client_id=${bot.applicationId}&scope=bot`, INVALID],
  ];

  it('answers 403 20001 to a bot on every people-only route, before reading the body', async () => {
    for (const [method, path, body] of peopleOnly()) {
      await refused(base, method, path, bot.token, 403, BOTS_CANNOT, body);
    }
  });

  it('serves the same routes to a person (whatever else it answers, never 20001)', async () => {
    for (const [method, path, body] of peopleOnly()) {
      if (path.startsWith('/users/@me/delete') || path.startsWith('/users/@me/disable')) continue; // would end the account
      const answer = await attempt(base, method, path, person.token, body);
      assert.notEqual(answer.code, BOTS_CANNOT, `${method} ${path}: ${answer.text}`);
      assert.ok(answer.status < 500, `${method} ${path}: ${answer.text}`);
    }
    const settings = await api<Record<string, unknown>>(base, 'GET', '/users/@me/settings', { token: person.token });
    assert.equal(typeof settings, 'object');
    assert.ok(Array.isArray(await api(base, 'GET', '/users/@me/relationships', { token: person.token })));
  });

  it('refuses a bot accepting an invite that a person may accept', async () => {
    const invite = await api<{ code: string }>(base, 'POST', `/channels/${channelId}/invites`, {
      token: person.token,
      body: { max_age: 0 },
    });
    await refused(base, 'POST', `/invites/${invite.code}`, bot.token, 403, BOTS_CANNOT);
    const joiner = await registerUser(base, 'joiner');
    const joined = await api<{ guild?: { id: string } }>(base, 'POST', `/invites/${invite.code}`, {
      token: joiner.token,
    });
    assert.equal(joined.guild?.id, guildId);
  });

  it('lets a bot open a 1:1 DM (as on Discord) but not a group DM', async () => {
    const dm = await api<{ type: number; recipients: { id: string }[] }>(base, 'POST', '/users/@me/channels', {
      token: bot.token,
      body: { recipient_id: friend.id },
    });
    assert.equal(dm.type, 1);
    assert.deepEqual(
      dm.recipients.map((user) => user.id),
      [friend.id],
    );
    await refused(base, 'POST', '/users/@me/channels', bot.token, 403, BOTS_CANNOT, {
      recipients: [friend.id, person.id],
    });
    const group = await api<{ type: number }>(base, 'POST', '/users/@me/channels', {
      token: person.token,
      body: { recipients: [friend.id, bot.id] },
    });
    assert.equal(group.type, 3);
  });

  it('refuses a bot adding a group DM recipient that a recipient who is a person may add', async () => {
    const other = await registerUser(base, 'other');
    await refused(base, 'PUT', `/channels/${groupDmId}/recipients/${other.id}`, bot.token, 403, BOTS_CANNOT);
    const added = await attempt(base, 'PUT', `/channels/${groupDmId}/recipients/${other.id}`, person.token);
    assert.ok(added.status === 200 || added.status === 204, added.text);
  });
});
