import assert from 'node:assert/strict';
import { Permission } from '../../../src/domain/permissions.js';
import { api, registerUser, type TestUser } from '../../support/testServer.js';
import {
  connect,
  createGuild,
  fails,
  grant,
  guildReady,
  member,
  startHarness,
  type GuildHarness,
  type TestGuild,
} from './guildKit.js';

interface BulkBanResult {
  banned_users: string[];
  failed_users: string[];
}

describe('POST /guilds/{id}/bulk-ban', () => {
  let h: GuildHarness;
  let target: TestGuild;
  let moderator: TestUser;
  let banOnly: TestUser;

  before(async () => {
    h = await startHarness();
    target = await createGuild(h.api, await registerUser(h.api, 'owner'));
    moderator = await member(h.api, target, 'moderator');
    await grant(h.api, target, moderator, Permission.BAN_MEMBERS | Permission.MANAGE_GUILD, 'mods');
    banOnly = await member(h.api, target, 'banonly');
    await grant(h.api, target, banOnly, Permission.BAN_MEMBERS, 'banners');
  });
  after(async () => {
    await h.stop();
  });

  const path = () => `/guilds/${target.guild.id}/bulk-ban`;
  const bulkBan = (body: unknown, user = moderator) =>
    api<BulkBanResult>(h.api, 'POST', path(), { token: user.token, body });

  it('bans members and other users at once, lists the rest as failed, and tells GUILD_BAN_ADD for each', async () => {
    const joined = await member(h.api, target, 'joined');
    const outsider = await registerUser(h.api, 'outsider');
    const already = await registerUser(h.api, 'already');
    await api(h.api, 'PUT', `/guilds/${target.guild.id}/bans/${already.id}`, {
      token: moderator.token,
      body: {},
      expect: 204,
    });
    const socket = await connect(h.gatewayUrl, target.owner);
    try {
      await guildReady(socket, target.guild.id);
      const unknown = '123456789012345678';
      const result = await bulkBan({
        user_ids: [joined.id, outsider.id, already.id, target.owner.id, unknown, joined.id],
        reason: 'raid',
      });
      assert.deepEqual(result.banned_users.sort(), [joined.id, outsider.id].sort());
      assert.deepEqual(result.failed_users.sort(), [already.id, target.owner.id, unknown].sort());
      for (const id of [joined.id, outsider.id]) {
        await socket.waitForDispatch<{ user: { id: string } }>('GUILD_BAN_ADD', (d) => d.user.id === id);
      }
    } finally {
      await socket.close();
    }
    const ban = await api<{ reason: string }>(h.api, 'GET', `/guilds/${target.guild.id}/bans/${joined.id}`, {
      token: moderator.token,
    });
    assert.equal(ban.reason, 'raid');
    await fails(h.api, 'GET', `/guilds/${target.guild.id}/members/${joined.id}`, moderator, 404, 10_007);
  });

  it('answers 400 500000 when it could ban nobody', async () => {
    const error = await fails(h.api, 'POST', path(), moderator, 400, 500_000, { user_ids: [target.owner.id] });
    assert.equal(error.message, 'Failed to ban users');
  });

  it("deletes the banned users' recent messages with one MESSAGE_DELETE_BULK when asked", async () => {
    const first = await member(h.api, target, 'raider1');
    const second = await member(h.api, target, 'raider2');
    const bystander = await member(h.api, target, 'bystander');
    const post = (user: TestUser) =>
      api<{ id: string }>(h.api, 'POST', `/channels/${target.textChannelId}/messages`, {
        token: user.token,
        body: { content: 'raid' },
      });
    const raid = [await post(first), await post(second)];
    const kept = await post(bystander);
    const socket = await connect(h.gatewayUrl, target.owner);
    try {
      await guildReady(socket, target.guild.id);
      const deleted = socket.waitForDispatch<{ ids: string[] }>('MESSAGE_DELETE_BULK', (d) =>
        d.ids.includes(raid[0]?.id ?? ''),
      );
      await bulkBan({ user_ids: [first.id, second.id], delete_message_seconds: 600 });
      assert.deepEqual((await deleted).d.ids.sort(), raid.map((message) => message.id).sort());
    } finally {
      await socket.close();
    }
    const read = await api<{ id: string }>(h.api, 'GET', `/channels/${target.textChannelId}/messages/${kept.id}`, {
      token: target.owner.token,
    });
    assert.equal(read.id, kept.id);
  });

  it('needs both BAN_MEMBERS and MANAGE_GUILD, and tells a caller without them before judging the body', async () => {
    const plain = await member(h.api, target, 'plain');
    const victim = await member(h.api, target, 'victim');
    await fails(h.api, 'POST', path(), banOnly, 403, 50_013, { user_ids: [victim.id] });
    await fails(h.api, 'POST', path(), plain, 403, 50_013, { user_ids: [victim.id] });
    await fails(h.api, 'POST', path(), plain, 403, 50_013, { user_ids: 'everyone' });
    const stranger = await registerUser(h.api, 'stranger');
    await fails(h.api, 'POST', path(), stranger, 404, 10_004, { user_ids: [victim.id] });
    // Nobody was banned on the way.
    await fails(h.api, 'GET', `/guilds/${target.guild.id}/bans/${victim.id}`, moderator, 404, 10_026);
  });

  it('pages GET /bans in user id order with limit, after and before, as Discord does', async () => {
    const own = await createGuild(h.api, await registerUser(h.api, 'pager'));
    const users = await Promise.all([1, 2, 3, 4, 5].map((n) => registerUser(h.api, `banned${n}`)));
    await api(h.api, 'POST', `/guilds/${own.guild.id}/bulk-ban`, {
      token: own.owner.token,
      body: { user_ids: users.map((user) => user.id) },
    });
    const ids = users.map((user) => user.id).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    const page = async (query: string) =>
      (
        await api<{ user: { id: string } }[]>(h.api, 'GET', `/guilds/${own.guild.id}/bans${query}`, {
          token: own.owner.token,
        })
      ).map((ban) => ban.user.id);
    assert.deepEqual(await page(''), ids);
    assert.deepEqual(await page('?limit=2'), ids.slice(0, 2));
    assert.deepEqual(await page(`?limit=2&after=${ids[1] ?? ''}`), ids.slice(2, 4));
    assert.deepEqual(await page(`?limit=2&before=${ids[4] ?? ''}`), ids.slice(2, 4));
    await fails(h.api, 'GET', `/guilds/${own.guild.id}/bans?limit=0`, own.owner, 400, 50_035);
    await fails(h.api, 'GET', `/guilds/${own.guild.id}/bans?limit=0`, moderator, 404, 10_004);
  });

  it('refuses more than 200 users, ids that are not snowflakes and a delete window over 7 days (50035)', async () => {
    const many = Array.from({ length: 201 }, (_, index) => String(100_000_000_000_000_000n + BigInt(index)));
    const tooMany = await fails(h.api, 'POST', path(), moderator, 400, 50_035, { user_ids: many });
    assert.ok(tooMany.errors?.['user_ids'], JSON.stringify(tooMany));
    const notIds = await fails(h.api, 'POST', path(), moderator, 400, 50_035, { user_ids: ['abc'] });
    assert.ok(notIds.errors?.['user_ids'], JSON.stringify(notIds));
    const window = await fails(h.api, 'POST', path(), moderator, 400, 50_035, {
      user_ids: [banOnly.id],
      delete_message_seconds: 604_801,
    });
    assert.ok(window.errors?.['delete_message_seconds'], JSON.stringify(window));
    await fails(h.api, 'POST', path(), moderator, 400, 50_035, {});
  });
});
