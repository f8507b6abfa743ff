import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient } from '../../support/GatewayClient.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { addBot, createBot, createGuild, joinGuild, type TestBot, type TestGuild } from '../gateway/gatewayFixtures.js';
import { call, type ApiError } from './httpClient.js';

/** The application command index as these tests read it. */
interface CommandIndex {
  applications: { id: string; name: string; bot_id?: string }[];
  application_commands: { id: string; name: string; application_id: string; guild_id?: string }[];
  version: string;
}

const BAN_MEMBERS = 1n << 2n;
const GUILDS = 1 << 0;

describe('application command index and command permissions over HTTP', () => {
  let server: TestServer;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let bot: TestBot;
  let guild: TestGuild;
  const ids: Record<string, string> = {};

  const names = (index: CommandIndex): string[] => index.application_commands.map((command) => command.name).sort();
  const get = <T = CommandIndex>(user: { token: string }, path: string) =>
    call<T>(server.api, 'GET', path, { auth: user.token });
  const guildIndex = async (user: TestUser): Promise<CommandIndex> => {
    const answer = await get(user, `/guilds/${guild.id}/application-command-index`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  };
  const permissionsPath = (commandId: string) =>
    `/applications/${bot.applicationId}/guilds/${guild.id}/commands/${commandId}/permissions`;
  const put = (user: { token: string }, commandId: string, body: unknown) =>
    call(server.api, 'PUT', permissionsPath(commandId), { auth: user.token, body });

  before(async () => {
    server = await startTestServer();
    owner = await registerUser(server.api, 'cmdowner');
    member = await registerUser(server.api, 'cmdmember');
    outsider = await registerUser(server.api, 'cmdoutsider');
    bot = await createBot(server.api, owner.token, 'commander');
    guild = await createGuild(server.api, owner.token, 'commands');
    await joinGuild(server.api, owner.token, guild.channelId, member.token);
    await addBot(server.api, owner.token, bot, guild.id);
    const globals = [
      { name: 'ping', description: 'Everyone, everywhere' },
      { name: 'ban', description: 'Moderators only', default_member_permissions: BAN_MEMBERS.toString() },
      { name: 'guildonly', description: 'Not in DMs', contexts: [0] },
      { name: 'nodm', description: 'Old style', dm_permission: false },
      { name: 'spicy', description: 'Age-restricted', nsfw: true },
    ];
    const created = await call<{ id: string; name: string }[]>(
      server.api,
      'PUT',
      `/applications/${bot.applicationId}/commands`,
      { auth: bot.token, body: globals },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const local = await call<{ id: string; name: string }[]>(
      server.api,
      'PUT',
      `/applications/${bot.applicationId}/guilds/${guild.id}/commands`,
      { auth: bot.token, body: [{ name: 'local', description: 'This guild only' }] },
    );
    assert.equal(local.status, 200, JSON.stringify(local.body));
    for (const command of [...created.body, ...local.body]) ids[command.name] = command.id;
  });
  after(async () => {
    await server.stop();
  });

  it('lists a member the global and guild commands of the guild’s bots, without those needing bits they lack', async () => {
    const index = await guildIndex(member);
    assert.deepEqual(names(index), ['guildonly', 'local', 'nodm', 'ping', 'spicy']);
    assert.deepEqual(
      index.applications.map((app) => [app.id, app.bot_id]),
      [[bot.applicationId, bot.id]],
    );
    assert.match(index.version, /^\d+$/);
  });

  it('lists the owner every command, default_member_permissions included', async () => {
    assert.deepEqual(names(await guildIndex(owner)), ['ban', 'guildonly', 'local', 'nodm', 'ping', 'spicy']);
  });

  it('lists a guild channel’s commands without age-restricted ones there, and the search route filters by name and type', async () => {
    const channel = await get(member, `/channels/${guild.channelId}/application-command-index`);
    assert.equal(channel.status, 200);
    assert.deepEqual(names(channel.body), ['guildonly', 'local', 'nodm', 'ping']);
    const search = await get(
      member,
      `/channels/${guild.channelId}/application-commands/search?type=1&query=PI&limit=10&include_applications=true`,
    );
    assert.equal(search.status, 200);
    assert.deepEqual(names(search.body), ['ping']);
    assert.deepEqual(
      search.body.applications.map((app) => app.id),
      [bot.applicationId],
    );
  });

  it('lists in a DM with the bot only its global commands allowed in DMs', async () => {
    const dm = await call<{ id: string }>(server.api, 'POST', '/users/@me/channels', {
      auth: member.token,
      body: { recipients: [bot.id] },
    });
    assert.equal(dm.status, 200, JSON.stringify(dm.body));
    const index = await get(member, `/channels/${dm.body.id}/application-command-index`);
    assert.equal(index.status, 200);
    assert.deepEqual(names(index.body), ['ban', 'ping']);
  });

  it('refuses a non-member: 404 10004 for the guild index, 403 or 404 for a channel of the guild', async () => {
    const guildAnswer = await get<ApiError>(outsider, `/guilds/${guild.id}/application-command-index`);
    assert.equal(guildAnswer.status, 404);
    assert.equal(guildAnswer.body.code, 10004);
    const channelAnswer = await get<ApiError>(outsider, `/channels/${guild.channelId}/application-command-index`);
    assert.ok([403, 404].includes(channelAnswer.status), JSON.stringify(channelAnswer.body));
    assert.ok([50001, 10003].includes(channelAnswer.body.code));
  });

  describe('command permissions', () => {
    it('lets the owner deny a command to a member, which leaves the member’s index and is told to the bot', async () => {
      const { client } = await GatewayClient.identified(server.gatewayUrl, bot.token, { intents: GUILDS });
      await client.waitForDispatch<{ id: string }>('GUILD_CREATE', (d) => d.id === guild.id); // subscribed by now
      const answer = await put(owner, ids['ping'] ?? '', {
        permissions: [{ id: member.id, type: 2, permission: false }],
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const told = await client.waitForDispatch<{ id: string }>(
        'APPLICATION_COMMAND_PERMISSIONS_UPDATE',
        (d) => d.id === ids['ping'],
      );
      assert.deepEqual(told.d, answer.body);
      await client.drop();
      assert.deepEqual(answer.body, {
        id: ids['ping'],
        application_id: bot.applicationId,
        guild_id: guild.id,
        permissions: [{ id: member.id, type: 2, permission: false }],
      });
      assert.ok(!names(await guildIndex(member)).includes('ping'));
      assert.ok(names(await guildIndex(owner)).includes('ping'));
    });

    it('lets an override for @everyone open a command its default_member_permissions closed', async () => {
      const answer = await put(owner, ids['ban'] ?? '', { permissions: [{ id: guild.id, type: 1, permission: true }] });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.ok(names(await guildIndex(member)).includes('ban'));
    });

    it('applies an application-wide channel override to every command in that channel', async () => {
      const answer = await put(owner, bot.applicationId, {
        permissions: [{ id: guild.channelId, type: 3, permission: false }],
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const inChannel = await get(member, `/channels/${guild.channelId}/application-command-index`);
      assert.deepEqual(names(inChannel.body), []);
      await put(owner, bot.applicationId, { permissions: [] });
    });

    it('lets the bot read them, answers 404 10066 for a command without overrides', async () => {
      const list = await get<{ id: string }[]>(
        bot,
        `/applications/${bot.applicationId}/guilds/${guild.id}/commands/permissions`,
      );
      assert.equal(list.status, 200);
      assert.ok(list.body.some((entry) => entry.id === ids['ping']));
      const one = await get<{ permissions: unknown[] }>(bot, permissionsPath(ids['ping'] ?? ''));
      assert.equal(one.status, 200);
      const none = await get<ApiError>(bot, permissionsPath(ids['local'] ?? ''));
      assert.equal(none.status, 404);
      assert.equal(none.body.code, 10066);
    });

    it('refuses an edit by a bot (403 20001) and by a member without MANAGE_GUILD (403 50013), even with a bad body', async () => {
      const byBot = await put(bot, ids['ping'] ?? '', { permissions: [] });
      assert.equal(byBot.status, 403);
      assert.equal(byBot.body.code, 20001);
      const byMember = await put(member, ids['ping'] ?? '', { permissions: 'all of them' });
      assert.equal(byMember.status, 403);
      assert.equal(byMember.body.code, 50013);
    });

    it('answers 400 50035 for a bad body from the owner and 404 10063 for an unknown command', async () => {
      const bad = await put(owner, ids['ping'] ?? '', { permissions: [{ id: member.id, type: 9, permission: true }] });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.code, 50035);
      const unknown = await put(owner, '123456789012345678', { permissions: [] });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 10063);
    });
  });
});
