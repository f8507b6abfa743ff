import assert from 'node:assert/strict';
import { Permission } from '../../../src/domain/permissions.js';
import { api, registerUser, type TestUser } from '../../support/testServer.js';
import { createGuild, fails, grant, member, startHarness, type GuildHarness, type TestGuild } from './guildKit.js';

describe('guild settings', () => {
  let h: GuildHarness;
  let target: TestGuild;
  let plain: TestUser;
  let stranger: TestUser;

  before(async () => {
    h = await startHarness();
    target = await createGuild(h.api, await registerUser(h.api, 'owner'), 'Settled');
    plain = await member(h.api, target, 'plain');
    stranger = await registerUser(h.api, 'stranger');
  });
  after(async () => {
    await h.stop();
  });

  const path = (rest: string) => `/guilds/${target.guild.id}/${rest}`;

  it('reads and changes the widget (MANAGE_GUILD); widget.json is open to any signed-in user once enabled', async () => {
    await fails(h.api, 'GET', path('widget'), plain, 403, 50_013);
    assert.deepEqual(await api(h.api, 'GET', path('widget'), { token: target.owner.token }), {
      enabled: false,
      channel_id: null,
    });
    await fails(h.api, 'GET', path('widget.json'), stranger, 403, 50_004);
    const body = { enabled: true, channel_id: target.textChannelId };
    await fails(h.api, 'PATCH', path('widget'), plain, 403, 50_013, body);
    await fails(h.api, 'PATCH', path('widget'), target.owner, 400, 50_035, { enabled: true, channel_id: '42' });
    assert.deepEqual(await api(h.api, 'PATCH', path('widget'), { token: target.owner.token, body }), body);
    const widget = await api<{ id: string; name: string }>(h.api, 'GET', path('widget.json'), {
      token: stranger.token,
    });
    assert.deepEqual([widget.id, widget.name], [target.guild.id, 'Settled']);
  });

  it('reads and changes the welcome screen (MANAGE_GUILD)', async () => {
    const body = {
      enabled: true,
      description: 'Welcome!',
      welcome_channels: [{ channel_id: target.textChannelId, description: 'Say hi' }],
    };
    await fails(h.api, 'PATCH', path('welcome-screen'), plain, 403, 50_013, body);
    await api(h.api, 'PATCH', path('welcome-screen'), { token: target.owner.token, body });
    const screen = await api<{ description: string; welcome_channels: { channel_id: string }[] }>(
      h.api,
      'GET',
      path('welcome-screen'),
      { token: plain.token },
    );
    assert.equal(screen.description, 'Welcome!');
    assert.equal(screen.welcome_channels[0]?.channel_id, target.textChannelId);
    await fails(h.api, 'GET', path('welcome-screen'), stranger, 404, 10_004);
  });

  it('sets a vanity URL (MANAGE_GUILD) that works as an invite and is unique across guilds', async () => {
    await fails(h.api, 'GET', path('vanity-url'), plain, 403, 50_013);
    await fails(h.api, 'PATCH', path('vanity-url'), plain, 403, 50_013, { code: 'settled' });
    const code = `settled-${Date.now() % 100_000}`;
    assert.deepEqual(await api(h.api, 'PATCH', path('vanity-url'), { token: target.owner.token, body: { code } }), {
      code,
    });
    assert.deepEqual(await api(h.api, 'GET', path('vanity-url'), { token: target.owner.token }), { code, uses: 0 });
    const invite = await api<{ guild: { id: string } }>(h.api, 'GET', `/invites/${code}`, { token: stranger.token });
    assert.equal(invite.guild.id, target.guild.id);
    const other = await createGuild(h.api, stranger);
    await fails(h.api, 'PATCH', `/guilds/${other.guild.id}/vanity-url`, stranger, 400, 50_020, { code });
    await fails(h.api, 'PATCH', `/guilds/${other.guild.id}/vanity-url`, stranger, 400, 50_020, { code: 'Bad Code!' });
  });

  it('answers the static listings to members only, webhooks with MANAGE_WEBHOOKS', async () => {
    const regions = await api<{ id: string }[]>(h.api, 'GET', path('regions'), { token: plain.token });
    assert.ok(regions.length > 0);
    assert.deepEqual(await api(h.api, 'GET', path('integrations'), { token: plain.token }), []);
    assert.deepEqual(await api(h.api, 'GET', path('premium/subscriptions'), { token: plain.token }), []);
    await fails(h.api, 'GET', path('regions'), stranger, 404, 10_004);
    await fails(h.api, 'GET', path('webhooks'), plain, 403, 50_013);
    const hooks = await member(h.api, target, 'hooks');
    await grant(h.api, target, hooks, Permission.MANAGE_WEBHOOKS);
    assert.deepEqual(await api(h.api, 'GET', path('webhooks'), { token: hooks.token }), []);
    const verification = await api<{ form_fields: unknown[] }>(h.api, 'GET', path('member-verification'), {
      token: plain.token,
    });
    assert.deepEqual(verification.form_fields, []);
  });
});
