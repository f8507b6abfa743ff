import assert from 'node:assert/strict';
import { base32Decode, generateTotpSecret, totpCode } from '../../../actors/user/totp.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { call, fieldCodes, type ApiUser } from './httpClient.js';

/** What POST /auth/login answers: a token, or an MFA challenge with a ticket. */
interface LoginAnswer {
  token: string | null;
  user_id: string;
  user_settings?: { locale: string; theme: string };
  mfa?: boolean;
  ticket?: string;
}

/** What enabling or disabling TOTP answers. */
interface MfaAnswer {
  token: string;
  backup_codes?: { code: string; consumed: boolean }[];
}

describe('accounts over HTTP', () => {
  let server: TestServer;
  let base: string;

  before(async () => {
    server = await startTestServer();
    base = server.api;
  });
  after(async () => server.stop());

  const register = (body: Record<string, unknown>) => call(base, 'POST', '/auth/register', { body });
  const me = (auth: string) => call<ApiUser>(base, 'GET', '/users/@me', { auth });
  const login = (loginName: string, password: string) =>
    call<LoginAnswer>(base, 'POST', '/auth/login', { body: { login: loginName, password } });
  const emailOf = async (user: TestUser): Promise<string> => (await me(user.token)).body.email ?? '';

  describe('registration and login', () => {
    it('registers, logs in by email and by tag, and reads /users/@me', async () => {
      const email = `Alice.${Date.now()}@Example.test`;
      const created = await call<{ token: string }>(base, 'POST', '/auth/register', {
        body: { username: 'alice', password: 'pw-alice-1', email, consent: true },
      });
      assert.equal(created.status, 200);
      assert.equal(typeof created.body.token, 'string');

      const session = await login(email.toLowerCase(), 'pw-alice-1');
      assert.equal(session.status, 200);
      assert.deepEqual(session.body.user_settings, { locale: 'en-US', theme: 'dark' });

      const self = await me(session.body.token ?? '');
      assert.equal(self.status, 200);
      assert.equal(self.body.id, session.body.user_id);
      assert.equal(self.body.username, 'alice');
      assert.match(self.body.discriminator, /^\d{4}$/);
      assert.equal(self.body.email, email.toLowerCase());

      const byTag = await login(`alice#${self.body.discriminator}`, 'pw-alice-1');
      assert.equal(byTag.body.user_id, self.body.id);
    });

    it('answers a wrong password with INVALID_LOGIN on login and password', async () => {
      const user = await registerUser(base, 'wrongpw');
      const answer = await call(base, 'POST', '/auth/login', {
        body: { login: await emailOf(user), password: 'nope' },
      });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 50_035);
      assert.deepEqual(fieldCodes(answer.body, 'login'), ['INVALID_LOGIN']);
      assert.deepEqual(fieldCodes(answer.body, 'password'), ['INVALID_LOGIN']);
    });

    it('refuses a username that is too short, naming the field', async () => {
      const answer = await register({ username: 'a', password: 'x', consent: true });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 50_035);
      assert.ok(fieldCodes(answer.body, 'username').length > 0);
    });

    it('requires consent, naming the field whether it is missing or false', async () => {
      const missing = await register({ username: 'noconsent', password: 'x' });
      assert.equal(missing.status, 400);
      assert.ok(fieldCodes(missing.body, 'consent').length > 0);
      const refused = await register({ username: 'noconsent', password: 'x', consent: false });
      assert.equal(refused.status, 400);
      assert.deepEqual(fieldCodes(refused.body, 'consent'), ['CONSENT_REQUIRED']);
    });

    it('refuses an email that is already registered', async () => {
      const email = `dup.${Date.now()}@example.test`;
      assert.equal((await register({ username: 'dup', password: 'x', email, consent: true })).status, 200);
      const again = await register({ username: 'dup2', password: 'x', email: email.toUpperCase(), consent: true });
      assert.equal(again.status, 400);
      assert.deepEqual(fieldCodes(again.body, 'email'), ['EMAIL_ALREADY_REGISTERED']);
    });

    it('answers malformed JSON with 50109 and an oversized body with 413', async () => {
      const malformed = await call(base, 'POST', '/auth/register', { rawBody: '{"username": ' });
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.code, 50_109);
      const huge = await register({ username: 'huge', consent: true, bio: 'x'.repeat(2 * 1024 * 1024) });
      assert.equal(huge.status, 413);
      assert.equal(huge.body.code, 40_005);
    });

    it('serves the public consent metadata without a token', async () => {
      const answer = await call<{ consent_required: boolean; country_code: string }>(
        base,
        'GET',
        '/auth/location-metadata',
      );
      assert.equal(answer.status, 200);
      assert.equal(answer.body.consent_required, false);
      assert.equal(answer.body.country_code, 'US');
    });
  });

  describe('tokens', () => {
    let user: TestUser;
    before(async () => {
      user = await registerUser(base, 'tokens');
    });

    it('accepts the token bare, as Bearer and as Bot', async () => {
      for (const auth of [user.token, `Bearer ${user.token}`, `Bot ${user.token}`]) {
        assert.equal((await me(auth)).status, 200, auth.slice(0, 7));
      }
    });

    it('refuses a missing, forged or foreign-signed token with 401', async () => {
      assert.equal((await call(base, 'GET', '/users/@me')).status, 401);
      const [id = '', meta = ''] = user.token.split('.');
      const forged = await call(base, 'GET', '/users/@me', { auth: `${id}.${meta}.${'A'.repeat(43)}` });
      assert.equal(forged.status, 401);
      assert.deepEqual(forged.body, { code: 0, message: '401: Unauthorized' });
    });

    it('revokes the token on logout and only that token', async () => {
      const second = await login(await emailOf(user), 'correct horse battery');
      const token = second.body.token ?? '';
      assert.equal((await call(base, 'POST', '/auth/logout', { auth: token, body: {} })).status, 204);
      assert.equal((await me(token)).status, 401);
      assert.equal((await me(user.token)).status, 200);
    });

    it('changes the password only with the current one, revoking older tokens', async () => {
      const victim = await registerUser(base, 'pwchange');
      const wrong = await call(base, 'PATCH', '/users/@me', {
        auth: victim.token,
        body: { password: 'not it', new_password: 'next-secret' },
      });
      assert.equal(wrong.status, 400);
      assert.deepEqual(fieldCodes(wrong.body, 'password'), ['PASSWORD_DOES_NOT_MATCH']);

      const changed = await call<ApiUser>(base, 'PATCH', '/users/@me', {
        auth: victim.token,
        body: { password: 'correct horse battery', new_password: 'next-secret' },
      });
      assert.equal(changed.status, 200);
      const fresh = changed.body.token ?? '';
      assert.notEqual(fresh, '');
      assert.equal((await me(victim.token)).status, 401);
      assert.equal((await me(fresh)).status, 200);
      assert.equal((await login(changed.body.email ?? '', 'next-secret')).status, 200);
    });

    it('disables an account behind its password: tokens and logins stop working', async () => {
      const leaving = await registerUser(base, 'leaving');
      const email = await emailOf(leaving);
      const wrong = await call(base, 'POST', '/users/@me/disable', { auth: leaving.token, body: { password: 'nope' } });
      assert.equal(wrong.status, 400);
      const done = await call(base, 'POST', '/users/@me/disable', {
        auth: leaving.token,
        body: { password: 'correct horse battery' },
      });
      assert.equal(done.status, 204);
      assert.equal((await me(leaving.token)).status, 401);
      const refused = await call(base, 'POST', '/auth/login', {
        body: { login: email, password: 'correct horse battery' },
      });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.code, 20_013);
    });
  });

  describe('two-factor authentication (TOTP)', () => {
    it('enables TOTP, requires the code at login, and disables it with a backup code', async () => {
      const user = await registerUser(base, 'mfa');
      const email = await emailOf(user);
      const secret = generateTotpSecret();
      const code = (): string => totpCode(base32Decode(secret) ?? Buffer.alloc(0), Date.now());

      const badCode = await call(base, 'POST', '/users/@me/mfa/totp/enable', {
        auth: user.token,
        body: { password: 'correct horse battery', secret, code: code() === '000000' ? '111111' : '000000' },
      });
      assert.equal(badCode.status, 400);
      assert.equal(badCode.body.code, 60_008);

      const enabled = await call<MfaAnswer>(base, 'POST', '/users/@me/mfa/totp/enable', {
        auth: user.token,
        body: { password: 'correct horse battery', secret, code: code() },
      });
      assert.equal(enabled.status, 200);
      const backupCodes = enabled.body.backup_codes ?? [];
      assert.equal(backupCodes.length, 10);
      assert.equal((await me(user.token)).status, 401);
      const token = enabled.body.token;
      assert.equal((await me(token)).body.mfa_enabled, true);

      const challenge = await login(email, 'correct horse battery');
      assert.equal(challenge.status, 200);
      assert.equal(challenge.body.mfa, true);
      assert.equal(challenge.body.token, null);
      const ticket = challenge.body.ticket ?? '';
      const wrongStep = await call(base, 'POST', '/auth/mfa/totp', { body: { ticket, code: '12' } });
      assert.equal(wrongStep.status, 400);
      const secondStep = await call<LoginAnswer>(base, 'POST', '/auth/mfa/totp', { body: { ticket, code: code() } });
      assert.equal(secondStep.status, 200);
      assert.equal((await me(secondStep.body.token ?? '')).status, 200);

      const disabled = await call<MfaAnswer>(base, 'POST', '/users/@me/mfa/totp/disable', {
        auth: token,
        body: { code: backupCodes[0]?.code },
      });
      assert.equal(disabled.status, 200);
      assert.equal((await me(disabled.body.token)).body.mfa_enabled, false);
    });
  });
});
