import assert from 'node:assert/strict';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { call, fieldCodes, waitFor, type ApiRelationship, type ApiUser } from './httpClient.js';

/** GET /users/{id}/profile, as far as these tests read it. */
interface ApiProfile {
  user: ApiUser;
  user_profile: { pronouns: string };
  connected_accounts: unknown[];
  mutual_guilds?: unknown[];
}

describe('users, settings and relationships over HTTP', () => {
  let server: TestServer;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;

  before(async () => {
    server = await startTestServer();
    base = server.api;
    alice = await registerUser(base, 'alice');
    bob = await registerUser(base, 'bob');
  });
  after(async () => server.stop());

  const relationshipsOf = async (user: TestUser): Promise<ApiRelationship[]> =>
    (await call<ApiRelationship[]>(base, 'GET', '/users/@me/relationships', { auth: user.token })).body;

  describe('profiles', () => {
    it('edits the public fields and shows them to others', async () => {
      const patched = await call<ApiUser>(base, 'PATCH', '/users/@me', {
        auth: alice.token,
        body: { bio: 'hello', accent_color: 255, avatar: 'data:image/png;base64,iVBORw0KGgo=' },
      });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.bio, 'hello');
      assert.match(patched.body.avatar ?? '', /^[0-9a-f]{32}$/);

      const seen = await call<ApiUser>(base, 'GET', `/users/${alice.id}`, { auth: bob.token });
      assert.equal(seen.status, 200);
      assert.equal(seen.body.avatar, patched.body.avatar);
      assert.equal(seen.body.accent_color, 255);
      assert.equal(seen.body.email, undefined);
    });

    it('answers an unknown user with 404 10013 and a bad id with 50035', async () => {
      const unknown = await call(base, 'GET', '/users/123456789012345678', { auth: alice.token });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 10_013);
      assert.equal((await call(base, 'GET', '/users/abc', { auth: alice.token })).body.code, 50_035);
    });

    it('serves profiles and edits only the caller’s own', async () => {
      const patched = await call(base, 'PATCH', '/users/@me/profile', {
        auth: bob.token,
        body: { pronouns: 'he/him', theme_colors: [1, 2] },
      });
      assert.equal(patched.status, 200);
      const profile = await call<ApiProfile>(base, 'GET', `/users/${bob.id}/profile`, { auth: alice.token });
      assert.equal(profile.status, 200);
      assert.equal(profile.body.user.id, bob.id);
      assert.equal(profile.body.user_profile.pronouns, 'he/him');
      assert.deepEqual(profile.body.connected_accounts, []);
      assert.deepEqual(profile.body.mutual_guilds, []);
      const denied = await call(base, 'PATCH', `/users/${bob.id}/profile`, {
        auth: alice.token,
        body: { bio: 'hacked' },
      });
      assert.equal(denied.status, 403);
    });

    it('refuses an invalid username, naming the field', async () => {
      const answer = await call(base, 'PATCH', '/users/@me', { auth: alice.token, body: { username: 'bad#name' } });
      assert.equal(answer.status, 400);
      assert.ok(fieldCodes(answer.body, 'username').length > 0);
    });
  });

  describe('settings and notes', () => {
    it('merges settings and returns them whole', async () => {
      const patched = await call(base, 'PATCH', '/users/@me/settings', {
        auth: alice.token,
        body: { theme: 'light', developer_mode: true },
      });
      assert.equal(patched.status, 200);
      const settings = await call<{ theme: string; developer_mode: boolean; status: string }>(
        base,
        'GET',
        '/users/@me/settings',
        { auth: alice.token },
      );
      assert.equal(settings.body.theme, 'light');
      assert.equal(settings.body.developer_mode, true);
      assert.equal(settings.body.status, 'online');
      const bad = await call(base, 'PATCH', '/users/@me/settings', { auth: alice.token, body: { theme: 'pink' } });
      assert.equal(bad.status, 400);
      assert.ok(fieldCodes(bad.body, 'theme').length > 0);
    });

    it('keeps DM notification settings under @me and refuses guilds the user is not in', async () => {
      const patched = await call<{ muted: boolean }>(base, 'PATCH', '/users/@me/guilds/@me/settings', {
        auth: alice.token,
        body: { muted: true },
      });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.muted, true);
      const foreign = await call(base, 'PATCH', '/users/@me/guilds/123456789012345678/settings', {
        auth: alice.token,
        body: { muted: true },
      });
      assert.equal(foreign.status, 404);
    });

    it('stores a note about another user', async () => {
      const put = await call(base, 'PUT', `/users/@me/notes/${bob.id}`, { auth: alice.token, body: { note: 'tall' } });
      assert.equal(put.status, 204);
      const note = await call(base, 'GET', `/users/@me/notes/${bob.id}`, { auth: alice.token });
      assert.deepEqual(note.body, { user_id: alice.id, note_user_id: bob.id, note: 'tall' });
    });
  });

  describe('relationships', () => {
    it('sends, accepts and removes a friend request on both sides', async () => {
      const bobSelf = (await call<ApiUser>(base, 'GET', '/users/@me', { auth: bob.token })).body;
      const sent = await call(base, 'POST', '/users/@me/relationships', {
        auth: alice.token,
        body: { username: bobSelf.username, discriminator: bobSelf.discriminator },
      });
      assert.equal(sent.status, 204);
      const outgoing = await relationshipsOf(alice);
      assert.deepEqual(
        outgoing.map((r) => [r.id, r.type, r.nickname]),
        [[bob.id, 4, null]],
      );
      const incoming = await waitFor(async () => {
        const list = await relationshipsOf(bob);
        return list.length === 1 ? list : undefined;
      });
      assert.equal(incoming[0]?.type, 3);
      assert.equal(incoming[0]?.user.id, alice.id);

      const accept = await call(base, 'PUT', `/users/@me/relationships/${alice.id}`, { auth: bob.token, body: {} });
      assert.equal(accept.status, 204);
      const friends = await waitFor(async () => {
        const list = await relationshipsOf(alice);
        return list[0]?.type === 1 ? list : undefined;
      });
      assert.equal(friends[0]?.id, bob.id);

      assert.equal(
        (await call(base, 'DELETE', `/users/@me/relationships/${alice.id}`, { auth: bob.token })).status,
        204,
      );
      await waitFor(async () => ((await relationshipsOf(alice)).length === 0 ? true : undefined));
    });

    it('answers an unknown tag with 80004', async () => {
      const answer = await call(base, 'POST', '/users/@me/relationships', {
        auth: alice.token,
        body: { username: 'nobody-here', discriminator: '0001' },
      });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 80_004);
    });

    it('refuses a friend request to a user who blocked the caller', async () => {
      const carol = await registerUser(base, 'carol');
      const blocked = await call(base, 'PUT', `/users/@me/relationships/${alice.id}`, {
        auth: carol.token,
        body: { type: 2 },
      });
      assert.equal(blocked.status, 204);
      const refused = await call(base, 'PUT', `/users/@me/relationships/${carol.id}`, { auth: alice.token, body: {} });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.code, 80_000);
    });
  });

  describe('compatibility listings', () => {
    it('answers the listings clients poll with the shapes they expect', async () => {
      const expectations: [string, unknown][] = [
        ['/users/@me/connections', []],
        ['/users/@me/billing/country-code', { country_code: 'US' }],
        ['/users/@me/affinities/users', { user_affinities: [], inverse_user_affinities: [] }],
        ['/users/@me/affinities/guilds', { guild_affinities: [] }],
        ['/users/@me/guilds/premium/subscription-slots', []],
        ['/users/@me/applications/123456789012345678/entitlements', []],
      ];
      for (const [path, expected] of expectations) {
        const answer = await call<unknown>(base, 'GET', path, { auth: alice.token });
        assert.deepEqual([answer.status, answer.body], [200, expected], path);
      }
      assert.equal((await call(base, 'GET', '/users/@me/connections')).status, 401);
      assert.equal((await call(base, 'POST', '/users/@me/devices', { auth: alice.token, body: {} })).status, 204);
    });
  });
});
