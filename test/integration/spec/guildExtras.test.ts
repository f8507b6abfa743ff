import assert from 'node:assert/strict';
import { Permission } from '../../../src/domain/permissions.js';
import { DEFAULT_USER_RIGHTS, Right } from '../../../src/domain/rights.js';
import {
  api,
  connect,
  createGuild,
  errorFields,
  fails,
  grant,
  guildWithMember,
  member,
  raw,
  registerUser,
  startHarness,
  type GuildHarness,
  type TestGuild,
  type TestUser,
} from './specKit.js';

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): [number, number] {
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

describe('guild routes beside the core ones', function () {
  this.timeout(30_000);
  let h: GuildHarness;
  let target: TestGuild;
  let user: TestUser;
  let guildPath: string;

  before(async () => {
    h = await startHarness();
    ({ target, user } = await guildWithMember(h, 'Extras Guild'));
    guildPath = `/guilds/${target.guild.id}`;
  });

  after(async () => {
    await h.stop();
  });

  describe('GET /guilds/{id}/widget.png', () => {
    it('answers 403 50004 while the widget is disabled', async () => {
      await fails(h.api, 'GET', `${guildPath}/widget.png`, user, 403, 50_004);
    });

    it('serves a real PNG to a signed-in user once enabled, sized by style', async () => {
      await api(h.api, 'PATCH', `${guildPath}/widget`, {
        token: target.owner.token,
        body: { enabled: true, channel_id: target.textChannelId },
      });
      const shield = await raw(h.api, 'GET', `${guildPath}/widget.png`, { token: user.token });
      assert.equal(shield.status, 200);
      assert.equal(shield.headers.get('content-type'), 'image/png');
      const png = Buffer.from(await shield.arrayBuffer());
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      assert.deepEqual(pngSize(png), [76, 20]);
      const banner = Buffer.from(
        await (await raw(h.api, 'GET', `${guildPath}/widget.png?style=banner2`, { token: user.token })).arrayBuffer(),
      );
      assert.deepEqual(pngSize(banner), [320, 76]);
    });

    it('refuses an unknown style (50035 naming style) and an unknown guild (404 10004)', async () => {
      const error = await fails(h.api, 'GET', `${guildPath}/widget.png?style=poster`, user, 400, 50_035);
      assert.deepEqual(errorFields(error), ['style']);
      await fails(h.api, 'GET', '/guilds/1234567890123/widget.png', user, 404, 10_004);
    });
  });

  describe('GET /guilds/{id}/roles/member-counts', () => {
    it('counts the members of each role but @everyone', async () => {
      const roleId = await grant(h.api, target, user, 0n, 'counted');
      const counts = await api<Record<string, number>>(h.api, 'GET', `${guildPath}/roles/member-counts`, {
        token: user.token,
      });
      assert.equal(counts[roleId], 1);
      assert.equal(counts[target.guild.id], undefined);
    });

    it('answers 404 10004 to non-members and 401 without a token', async () => {
      await fails(h.api, 'GET', `${guildPath}/roles/member-counts`, await registerUser(h.api, 'o'), 404, 10_004);
      await fails(h.api, 'GET', `${guildPath}/roles/member-counts`, undefined, 401, 0);
    });
  });

  describe('GET /guilds/{id}/preview', () => {
    it('shows members the preview with counts', async () => {
      const preview = await api<{ id: string; name: string; approximate_member_count: number; emojis: unknown[] }>(
        h.api,
        'GET',
        `${guildPath}/preview`,
        { token: user.token },
      );
      assert.equal(preview.id, target.guild.id);
      assert.equal(preview.name, 'Extras Guild');
      assert.ok(preview.approximate_member_count >= 2);
      assert.deepEqual(preview.emojis, []);
    });

    it('answers 404 10004 to non-members (no discovery on an instance)', async () => {
      await fails(h.api, 'GET', `${guildPath}/preview`, await registerUser(h.api, 'peek'), 404, 10_004);
    });
  });

  describe('PATCH /guilds/{id}/voice-states/{user_id}', () => {
    const path = (id: string) => `${guildPath}/voice-states/${id}`;
    const body = { self_mute: false, self_deaf: false };

    it('answers 404 10065 for the caller’s own state while not connected to voice (voiceStates.test.ts has the rest)', async () => {
      await fails(h.api, 'PATCH', path('@me'), user, 404, 10_065, body);
    });

    it('needs MUTE_MEMBERS for someone else’s state (403 50013)', async () => {
      await fails(h.api, 'PATCH', path(target.owner.id), user, 403, 50_013, body);
      const muter = await member(h.api, target, 'muter');
      await grant(h.api, target, muter, Permission.MUTE_MEMBERS, 'muters');
      // Allowed past the permission check: the user is not connected to voice.
      await fails(h.api, 'PATCH', path(user.id), muter, 404, 10_065, { ...body, suppress: true });
    });

    it('names the bad field: self_mute required, channel_id a voice channel of the guild', async () => {
      const missing = await fails(h.api, 'PATCH', path('@me'), user, 400, 50_035, { self_deaf: false });
      assert.deepEqual(errorFields(missing), ['self_mute']);
      const text = await fails(h.api, 'PATCH', path('@me'), user, 400, 50_035, {
        ...body,
        channel_id: target.textChannelId,
      });
      assert.deepEqual(errorFields(text), ['channel_id']);
    });

    it('answers 404 10007 for a user who is not a member', async () => {
      const outsider = await registerUser(h.api, 'nonmember');
      await fails(h.api, 'PATCH', path(outsider.id), target.owner, 404, 10_007, body);
    });
  });

  describe('PATCH /guilds/{id}/profile/{member_id}', () => {
    it('updates the caller’s guild profile and tells GUILD_MEMBER_UPDATE', async () => {
      const client = await connect(h.gatewayUrl, target.owner);
      try {
        const profile = await api<{ bio: string; pronouns: string; theme_colors: number[]; nick: string | null }>(
          h.api,
          'PATCH',
          `${guildPath}/profile/@me`,
          { token: user.token, body: { bio: 'guild bio', pronouns: 'they/them', theme_colors: [1, 2], nick: 'Nick' } },
        );
        assert.equal(profile.bio, 'guild bio');
        assert.equal(profile.pronouns, 'they/them');
        assert.deepEqual(profile.theme_colors, [1, 2]);
        assert.equal(profile.nick, 'Nick');
        await client.waitForDispatch<{ user: { id: string }; nick: string }>(
          'GUILD_MEMBER_UPDATE',
          (d) => d.user.id === user.id && d.nick === 'Nick',
        );
      } finally {
        await client.close();
      }
    });

    it('refuses someone else’s profile, even for the owner (403 50013)', async () => {
      await fails(h.api, 'PATCH', `${guildPath}/profile/${user.id}`, target.owner, 403, 50_013, { bio: 'x' });
    });

    it('names the bad field (theme_colors is exactly two integers)', async () => {
      const error = await fails(h.api, 'PATCH', `${guildPath}/profile/@me`, user, 400, 50_035, {
        theme_colors: [1, 2, 3],
      });
      assert.deepEqual(errorFields(error), ['theme_colors']);
    });
  });

  describe('PUT /guilds/{id}/members/{member_id}', () => {
    it('refuses an owner without the ADD_MEMBERS right and any non-owner (403 50013)', async () => {
      const newcomer = await registerUser(h.api, 'newcomer');
      await fails(h.api, 'PUT', `${guildPath}/members/${newcomer.id}`, target.owner, 403, 50_013);
      await fails(h.api, 'PUT', `${guildPath}/members/${newcomer.id}`, user, 403, 50_013);
      await fails(h.api, 'PUT', `${guildPath}/members/${newcomer.id}`, undefined, 401, 0);
    });

    it('answers 204 for someone already a member', async () => {
      const response = await raw(h.api, 'PUT', `${guildPath}/members/${user.id}`, { token: user.token });
      assert.equal(response.status, 204);
    });

    it('adds a user for an owner holding ADD_MEMBERS (201 with the member)', async () => {
      const owner = await h.userWithRights('adder', DEFAULT_USER_RIGHTS | Right.ADD_MEMBERS);
      const guild = await createGuild(h.api, owner, 'Adder Guild');
      const newcomer = await registerUser(h.api, 'added');
      const added = await api<{ user: { id: string } }>(
        h.api,
        'PUT',
        `/guilds/${guild.guild.id}/members/${newcomer.id}`,
        {
          token: owner.token,
          expect: 201,
        },
      );
      assert.equal(added.user.id, newcomer.id);
      await api(h.api, 'GET', `/guilds/${guild.guild.id}/members/${newcomer.id}`, { token: newcomer.token });
      await fails(h.api, 'PUT', `/guilds/${guild.guild.id}/members/99999999999999`, owner, 404, 10_013);
    });
  });

  describe('GET /guilds/{id}/messages/search', () => {
    let hiddenChannelId: string;

    before(async () => {
      const send = (channelId: string, content: string) =>
        api(h.api, 'POST', `/channels/${channelId}/messages`, { token: target.owner.token, body: { content } });
      const hidden = await api<{ id: string }>(h.api, 'POST', `${guildPath}/channels`, {
        token: target.owner.token,
        body: {
          name: 'staff',
          permission_overwrites: [
            { id: target.guild.id, type: 0, allow: '0', deny: Permission.VIEW_CHANNEL.toString() },
          ],
        },
        expect: 201,
      });
      hiddenChannelId = hidden.id;
      await send(target.textChannelId, 'The Quarterly report is ready');
      await send(target.textChannelId, 'lunch?');
      await send(hiddenChannelId, 'quarterly numbers, staff only');
      await api(h.api, 'POST', `/channels/${target.textChannelId}/messages`, {
        token: user.token,
        body: { content: 'my quarterly notes' },
      });
    });

    type SearchResult = {
      total_results: number;
      messages: { content: string; hit: boolean; author: { id: string } }[][];
    };
    const search = (who: TestUser, query: string) =>
      api<SearchResult>(h.api, 'GET', `${guildPath}/messages/search?${query}`, { token: who.token });

    it('finds messages by content substring, case-insensitively, newest first, in Discord’s shape', async () => {
      const result = await search(user, 'content=QUARTERLY');
      assert.equal(result.total_results, 2);
      assert.deepEqual(
        result.messages.map(([m]) => m?.content),
        ['my quarterly notes', 'The Quarterly report is ready'],
      );
      assert.ok(result.messages.every(([m]) => m?.hit === true));
    });

    it('never searches channels the caller cannot see', async () => {
      const owners = await search(target.owner, 'content=quarterly');
      assert.equal(owners.total_results, 3);
      const members = await search(user, `content=quarterly&channel_id=${hiddenChannelId}`);
      assert.equal(members.total_results, 0);
    });

    it('filters by author and pages with limit and offset', async () => {
      const byUser = await search(user, `content=quarterly&author_id=${user.id}`);
      assert.deepEqual(
        byUser.messages.map(([m]) => m?.author.id),
        [user.id],
      );
      const paged = await search(user, 'content=quarterly&limit=1&offset=1');
      assert.equal(paged.total_results, 2);
      assert.deepEqual(
        paged.messages.map(([m]) => m?.content),
        ['The Quarterly report is ready'],
      );
    });

    it('names a bad query parameter (50035), and refuses non-members (404 10004)', async () => {
      const error = await fails(h.api, 'GET', `${guildPath}/messages/search?limit=500`, user, 400, 50_035);
      assert.deepEqual(errorFields(error), ['limit']);
      const author = await fails(h.api, 'GET', `${guildPath}/messages/search?author_id=me`, user, 400, 50_035);
      assert.deepEqual(errorFields(author), ['author_id']);
      await fails(
        h.api,
        'GET',
        `${guildPath}/messages/search?content=x`,
        await registerUser(h.api, 'snoop'),
        404,
        10_004,
      );
    });
  });
});
