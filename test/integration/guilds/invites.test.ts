import assert from 'node:assert/strict';
import { DEFAULT_USER_RIGHTS, Right } from '../../../src/domain/rights.js';
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

interface ApiInvite {
  code: string;
  type: number;
  guild: { id: string; name: string };
  channel: { id: string; name: string; type: number };
  inviter?: { id: string };
  max_age: number;
  max_uses: number;
  uses: number;
  temporary: boolean;
  created_at: string;
  expires_at: string | null;
  approximate_member_count?: number;
}

describe('invites', () => {
  let h: GuildHarness;
  let target: TestGuild;
  let plain: TestUser;
  let stranger: TestUser;

  before(async () => {
    h = await startHarness();
    target = await createGuild(h.api, await registerUser(h.api, 'owner'), 'Invited');
    plain = await member(h.api, target, 'plain');
    stranger = await registerUser(h.api, 'stranger');
  });
  after(async () => {
    await h.stop();
  });

  const invitesPath = () => `/channels/${target.textChannelId}/invites`;
  const invite = (by: TestUser, body: Record<string, unknown> = {}) =>
    api<ApiInvite>(h.api, 'POST', invitesPath(), { token: by.token, body });

  it('creates an invite with Discord defaults: an 8-character code lasting a day', async () => {
    const created = await invite(plain);
    assert.match(created.code, /^[0-9A-Za-z]{8}$/);
    assert.equal(created.max_age, 86_400);
    assert.equal(created.max_uses, 0);
    assert.equal(created.uses, 0);
    assert.equal(created.type, 0);
    assert.equal(created.guild.id, target.guild.id);
    assert.equal(created.channel.id, target.textChannelId);
    assert.equal(created.inviter?.id, plain.id);
    assert.equal(Date.parse(created.expires_at ?? '') - Date.parse(created.created_at), 86_400_000);
  });

  it('refuses a member without CREATE_INSTANT_INVITE in the channel and non-members', async () => {
    await api(h.api, 'PUT', `/channels/${target.textChannelId}/permissions/${plain.id}`, {
      token: target.owner.token,
      body: { id: plain.id, type: 1, allow: '0', deny: Permission.CREATE_INSTANT_INVITE.toString() },
      expect: 204,
    });
    try {
      await fails(h.api, 'POST', invitesPath(), plain, 403, 50_013, {});
    } finally {
      await api(h.api, 'DELETE', `/channels/${target.textChannelId}/permissions/${plain.id}`, {
        token: target.owner.token,
        expect: 204,
      });
    }
    await fails(h.api, 'POST', invitesPath(), stranger, 404, 10_003, {});
    await fails(h.api, 'POST', invitesPath(), target.owner, 400, 50_035, { max_age: 999_999_999 });
  });

  it('looks an invite up with counts, and answers 404 10006 for an unknown code', async () => {
    const created = await invite(target.owner);
    const found = await api<ApiInvite>(h.api, 'GET', `/invites/${created.code}?with_counts=true`, {
      token: stranger.token,
    });
    assert.equal(found.guild.name, 'Invited');
    assert.ok((found.approximate_member_count ?? 0) >= 2);
    await fails(h.api, 'GET', '/invites/nosuchcode', stranger, 404, 10_006);
    await fails(h.api, 'GET', `/invites/${created.code}`, undefined, 401, 0);
  });

  it('joins through an invite; a used-up invite answers 404 10006; a member gets the invite back', async () => {
    const created = await invite(target.owner, { max_uses: 1 });
    const joiner = await registerUser(h.api, 'joiner');
    const socket = await connect(h.gatewayUrl, joiner);
    try {
      const accepted = await api<ApiInvite & { new_member: boolean }>(h.api, 'POST', `/invites/${created.code}`, {
        token: joiner.token,
      });
      assert.equal(accepted.new_member, true);
      await guildReady(socket, target.guild.id);
    } finally {
      await socket.close();
    }
    const late = await registerUser(h.api, 'late');
    await fails(h.api, 'POST', `/invites/${created.code}`, late, 404, 10_006);
    const again = await invite(target.owner);
    const repeat = await api<{ new_member: boolean }>(h.api, 'POST', `/invites/${again.code}`, { token: joiner.token });
    assert.equal(repeat.new_member, false);
  });

  it('refuses to accept for an account without the USE_MASS_INVITES right', async () => {
    const created = await invite(target.owner);
    const limited = await h.userWithRights('noinvites', DEFAULT_USER_RIGHTS & ~Right.USE_MASS_INVITES);
    await fails(h.api, 'POST', `/invites/${created.code}`, limited, 403, 50_013);
  });

  it('lists channel invites with MANAGE_CHANNELS and guild invites with MANAGE_GUILD', async () => {
    const created = await invite(target.owner);
    await fails(h.api, 'GET', invitesPath(), plain, 403, 50_013);
    await fails(h.api, 'GET', `/guilds/${target.guild.id}/invites`, plain, 403, 50_013);
    const channelInvites = await api<ApiInvite[]>(h.api, 'GET', invitesPath(), { token: target.owner.token });
    assert.ok(channelInvites.some((i) => i.code === created.code));
    const manager = await member(h.api, target, 'manager');
    await grant(h.api, target, manager, Permission.MANAGE_GUILD);
    const guildInvites = await api<ApiInvite[]>(h.api, 'GET', `/guilds/${target.guild.id}/invites`, {
      token: manager.token,
    });
    assert.ok(guildInvites.some((i) => i.code === created.code));
  });

  it('deletes an invite for its inviter or a manager, not for other members', async () => {
    const mine = await invite(plain);
    const other = await member(h.api, target, 'other');
    await fails(h.api, 'DELETE', `/invites/${mine.code}`, other, 403, 50_013);
    const deleted = await api<ApiInvite>(h.api, 'DELETE', `/invites/${mine.code}`, { token: plain.token });
    assert.equal(deleted.code, mine.code);
    await fails(h.api, 'GET', `/invites/${mine.code}`, plain, 404, 10_006);
    const theirs = await invite(other);
    await api(h.api, 'DELETE', `/invites/${theirs.code}`, { token: target.owner.token });
  });

  it('tells INVITE_CREATE and INVITE_DELETE to those who manage the channel', async () => {
    const socket = await connect(h.gatewayUrl, target.owner);
    try {
      await guildReady(socket, target.guild.id);
      const created = await invite(plain);
      const event = await socket.waitForDispatch<{ code: string; guild_id: string; channel_id: string }>(
        'INVITE_CREATE',
        (d) => d.code === created.code,
      );
      assert.equal(event.d.channel_id, target.textChannelId);
      await api(h.api, 'DELETE', `/invites/${created.code}`, { token: plain.token });
      await socket.waitForDispatch<{ code: string }>('INVITE_DELETE', (d) => d.code === created.code);
    } finally {
      await socket.close();
    }
  });
});
