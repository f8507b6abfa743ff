import assert from 'node:assert/strict';
import {
  api,
  errorFields,
  fails,
  guildWithMember,
  startHarness,
  type GuildHarness,
  type TestGuild,
  type TestUser,
} from './specKit.js';

describe('null in bodies where discord.js sends it', function () {
  this.timeout(30_000);
  let h: GuildHarness;
  let target: TestGuild;
  let user: TestUser;

  before(async () => {
    h = await startHarness();
    ({ target, user } = await guildWithMember(h, 'Nullable Guild'));
  });

  after(async () => {
    await h.stop();
  });

  it('resets a nickname with nick: null on PATCH .../members/@me and .../members/@me/nick', async () => {
    const path = `/guilds/${target.guild.id}/members/@me`;
    const named = await api<{ nick: string | null }>(h.api, 'PATCH', path, {
      token: user.token,
      body: { nick: 'Named' },
    });
    assert.equal(named.nick, 'Named');
    const reset = await api<{ nick: string | null }>(h.api, 'PATCH', path, { token: user.token, body: { nick: null } });
    assert.equal(reset.nick, null);
    await api(h.api, 'PATCH', `${path}/nick`, { token: user.token, body: { nick: 'Again' } });
    const viaNick = await api<{ nick: string | null }>(h.api, 'PATCH', `${path}/nick`, {
      token: user.token,
      body: { nick: null },
    });
    assert.deepEqual(viaNick, { nick: null });
  });

  it('still refuses a nick of the wrong type, and a missing nick on the nick route (50035 naming nick)', async () => {
    const path = `/guilds/${target.guild.id}/members/@me`;
    assert.deepEqual(errorFields(await fails(h.api, 'PATCH', path, user, 400, 50_035, { nick: 5 })), ['nick']);
    assert.deepEqual(errorFields(await fails(h.api, 'PATCH', `${path}/nick`, user, 400, 50_035, {})), ['nick']);
  });

  it('creates an invite with target_user_id and target_type null', async () => {
    const invite = await api<{ code: string }>(h.api, 'POST', `/channels/${target.textChannelId}/invites`, {
      token: target.owner.token,
      body: { max_age: 0, target_user_id: null, target_type: null, target_application_id: null },
    });
    assert.match(invite.code, /^[A-Za-z0-9]+$/);
    const error = await fails(h.api, 'POST', `/channels/${target.textChannelId}/invites`, target.owner, 400, 50_035, {
      target_type: true,
    });
    assert.deepEqual(errorFields(error), ['target_type']);
  });
});
