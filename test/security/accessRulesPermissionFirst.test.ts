import assert from 'node:assert/strict';
import { Router } from '@koa/router';
import { Permission } from '../../src/domain/permissions.js';
import type { EdgeDeps, EdgeState } from '../../src/http/EdgeDeps.js';
import { ROUTE_MODULES } from '../../src/http/routes/index.js';
import { grant, member } from '../integration/guilds/guildKit.js';
import { pngBytes, pngDataUri, sendForm, stickerForm } from '../integration/spec/specKit.js';
import { api, registerUser, startTestServer, type TestServer, type TestUser } from '../support/testServer.js';
import { attempt, lockedGuild, type LockedGuild } from './accessRulesKit.js';

/** A body no route's schema accepts (every body schema is an object). */
const INVALID = [42];
const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** Every mutating route under /guilds/{guild_id} and /channels/{channel_id}, read from the mounted routers. */
function mutatingRoutes(): { method: string; path: string }[] {
  const router = new Router<EdgeState>();
  // Route modules only keep `deps` for their handlers; mounting reads nothing from it.
  for (const mount of ROUTE_MODULES) mount(router, {} as EdgeDeps);
  return router.stack.flatMap(({ path, methods }) =>
    typeof path === 'string' && /^\/(guilds\/:guild_id|channels\/:channel_id)(\/|$)/.test(path)
      ? methods.filter((method) => METHODS.includes(method)).map((method) => ({ method, path }))
      : [],
  );
}

/**
 * Channel routes no channel permission guards, so one who sees the channel is answered on the merits:
 * read states, editing (authorship is what counts; the actor checks it once the body is valid),
 * removing one's own reaction, and the group-DM recipient routes (a guild channel is the wrong type
 * whoever asks: 400 50024, as on Discord).
 */
const NO_CHANNEL_PERMISSION_NEEDED = new Set([
  'POST /channels/:channel_id/messages/:message_id/ack',
  'PATCH /channels/:channel_id/messages/:message_id',
  'DELETE /channels/:channel_id/messages/:message_id/reactions/:emoji/@me',
  'PUT /channels/:channel_id/recipients/:user_id',
  'DELETE /channels/:channel_id/recipients/:user_id',
]);

/** Adding someone already a member is a no-op any member may ask for (204); the table adds an outsider. */
const ADD_MEMBER = 'PUT /guilds/:guild_id/members/:member_id';

/** Routes whose body the owner may send invalid: each must answer 400 50035 to a caller who may act. */
const BODY_ROUTES = [
  'PATCH /guilds/:guild_id',
  'POST /guilds/:guild_id/channels',
  'PATCH /guilds/:guild_id/channels',
  'PATCH /guilds/:guild_id/widget',
  'PATCH /guilds/:guild_id/welcome-screen',
  'PATCH /guilds/:guild_id/vanity-url',
  'POST /guilds/:guild_id/roles',
  'PATCH /guilds/:guild_id/roles',
  'PATCH /guilds/:guild_id/roles/:role_id',
  'PATCH /guilds/:guild_id/members/:member_id',
  'PATCH /guilds/:guild_id/members/:member_id/nick',
  'PATCH /guilds/:guild_id/voice-states/:user_id',
  'PATCH /guilds/:guild_id/profile/:member_id',
  'PUT /guilds/:guild_id/bans/:user_id',
  'POST /guilds/:guild_id/prune',
  'POST /guilds/:guild_id/templates',
  'PATCH /guilds/:guild_id/templates/:code',
  'POST /guilds/:guild_id/emojis',
  'PATCH /guilds/:guild_id/emojis/:emoji_id',
  'POST /guilds/:guild_id/stickers',
  'PATCH /guilds/:guild_id/stickers/:sticker_id',
  'POST /channels/:channel_id/messages',
  'PATCH /channels/:channel_id/messages/:message_id',
  'POST /channels/:channel_id/messages/bulk-delete',
  'POST /channels/:channel_id/messages/:message_id/ack',
  'PATCH /channels/:channel_id',
  'PUT /channels/:channel_id/permissions/:overwrite_id',
  'POST /channels/:channel_id/invites',
  'POST /channels/:channel_id/webhooks',
];

describe('security: a caller without a route’s permission hears 403/404 before any 400', function () {
  this.timeout(60_000);
  let server: TestServer;
  let base: string;
  let world: LockedGuild;
  let viewer: TestUser;
  let outsider: TestUser;
  let params: Record<string, string>;

  before(async () => {
    server = await startTestServer();
    base = server.api;
    // @everyone holds nothing: `plain` may do nothing at all, `viewer` only sees the channels.
    world = await lockedGuild(base, 0n, 'Gated');
    viewer = await member(base, world.target, 'viewer');
    outsider = await registerUser(base, 'outsider');
    await grant(base, world.target, viewer, Permission.VIEW_CHANNEL, 'viewers');
    const owner = { token: world.owner.token };
    const role = await api<{ id: string }>(base, 'POST', `/guilds/${world.guildId}/roles`, {
      ...owner,
      body: { name: 'target role' },
    });
    const message = await api<{ id: string }>(base, 'POST', `/channels/${world.channelId}/messages`, {
      ...owner,
      body: { content: 'the owner speaks' },
    });
    const thumbs = encodeURIComponent('👍');
    await api(base, 'PUT', `/channels/${world.channelId}/messages/${message.id}/reactions/${thumbs}/@me`, {
      ...owner,
      expect: 204,
    });
    const template = await api<{ code: string }>(base, 'POST', `/guilds/${world.guildId}/templates`, {
      ...owner,
      body: { name: 'Gated template' },
    });
    const emoji = await api<{ id: string }>(base, 'POST', `/guilds/${world.guildId}/emojis`, {
      ...owner,
      body: { name: 'gate', image: pngDataUri() },
      expect: 201,
    });
    const sticker = await sendForm<{ id: string }>(
      base,
      `/guilds/${world.guildId}/stickers`,
      world.owner.token,
      stickerForm({ name: 'gate', tags: 'gate' }, { data: pngBytes(), name: 'gate.png', type: 'image/png' }),
      201,
    );
    params = {
      guild_id: world.guildId,
      channel_id: world.channelId,
      member_id: world.owner.id,
      user_id: world.owner.id,
      role_id: role.id,
      overwrite_id: role.id,
      message_id: message.id,
      emoji: thumbs,
      code: template.code,
      emoji_id: emoji.id,
      sticker_id: sticker.id,
    };
  });

  after(async () => {
    await server.stop();
  });

  /** The route's path with its parameters filled in; throws naming a parameter this table lacks. */
  function filled(path: string, method = ''): string {
    const values = `${method} ${path}` === ADD_MEMBER ? { ...params, member_id: outsider.id } : params;
    return path.replace(/:([a-z_]+)/g, (_match, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`no value for :${name} in ${path}: add one to the test's params`);
      return value;
    });
  }

  it('finds the mutating guild and channel routes to check', () => {
    const routes = mutatingRoutes().map(({ method, path }) => `${method} ${path}`);
    assert.ok(routes.length > 50, `only ${routes.length} routes`);
    for (const route of BODY_ROUTES) assert.ok(routes.includes(route), `${route} is mounted`);
  });

  it('answers a member holding no permissions 403 (50013, or 50001 for a channel) or 404, never 400', async () => {
    const wrong: string[] = [];
    for (const { method, path } of mutatingRoutes()) {
      const answer = await attempt(base, method, filled(path, method), world.plain.token, INVALID);
      const codes = path.startsWith('/channels/') ? [50_001, 50_013] : [50_013];
      const ok = (answer.status === 403 && codes.includes(answer.code as number)) || answer.status === 404;
      if (!ok) wrong.push(`${method} ${path} → ${answer.status} ${answer.text}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('answers a member who only sees the channel 403 50013 where a channel permission is missing', async () => {
    const wrong: string[] = [];
    for (const { method, path } of mutatingRoutes()) {
      if (!path.startsWith('/channels/') || NO_CHANNEL_PERMISSION_NEEDED.has(`${method} ${path}`)) continue;
      const answer = await attempt(base, method, filled(path), viewer.token, INVALID);
      const ok = (answer.status === 403 && answer.code === 50_013) || answer.status === 404;
      if (!ok) wrong.push(`${method} ${path} → ${answer.status} ${answer.text}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('still answers 400 50035 to a caller who holds the permission (the owner)', async () => {
    const wrong: string[] = [];
    for (const route of BODY_ROUTES) {
      const [method = '', path = ''] = route.split(' ');
      const answer = await attempt(base, method, filled(path), world.owner.token, INVALID);
      if (answer.status !== 400 || answer.code !== 50_035) wrong.push(`${route} → ${answer.status} ${answer.text}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('refuses a plain member’s sticker upload and prune with 403 50013 before their bodies (the reported cases)', async () => {
    for (const [path, body] of [
      [`/guilds/${world.guildId}/stickers`, { name: 'x' }],
      [`/guilds/${world.guildId}/prune`, { days: 'many' }],
    ] as const) {
      const answer = await attempt(base, 'POST', path, world.plain.token, body);
      assert.deepEqual([answer.status, answer.code], [403, 50_013], answer.text);
    }
  });
});
