import assert from 'node:assert/strict';
import { base32Decode, generateTotpSecret, totpCode } from '../../actors/user/totp.js';
import { registerUser, startTestServer, type TestServer } from '../support/testServer.js';
import { send, type RawAnswer } from './securityKit.js';

const PASSWORD = 'correct horse battery';

describe('security: guessing passwords and codes is limited per account and per address', () => {
  let server: TestServer;
  let address = 0;

  // Behind a trusted proxy, so each test is its own client address and per-address limits stay apart.
  before(async () => {
    server = await startTestServer({ CHORUS_TRUSTED_PROXIES: 'loopback' });
  });
  after(async () => server.stop());

  /** A client at a fresh address: every call it makes is forwarded for that address. */
  function client(): (method: string, path: string, body: unknown, auth?: string) => Promise<RawAnswer> {
    address += 1;
    const headers = { 'x-forwarded-for': `198.51.100.${address}` };
    return (method, path, body, auth) =>
      send(server.api, method, path, { body, headers, ...(auth === undefined ? {} : { auth }) });
  }

  async function account(): Promise<{ token: string; email: string }> {
    const user = await registerUser(server.api, 'guess');
    const email = String((await send(server.api, 'GET', '/users/@me', { auth: user.token })).json['email']);
    return { token: user.token, email };
  }

  function assertLimited(answer: RawAnswer): void {
    assert.equal(answer.status, 429, answer.text);
    const retryAfter = Number(answer.json['retry_after']);
    assert.ok(retryAfter > 0 && retryAfter <= 60, `retry_after ${retryAfter}`);
    assert.equal(answer.json['global'], false);
  }

  it('refuses even the right password after five wrong ones, with retry_after', async () => {
    const { email } = await account();
    const call = client();
    for (let guess = 0; guess < 5; guess += 1) {
      assert.equal((await call('POST', '/auth/login', { login: email, password: `wrong ${guess}` })).status, 400);
    }
    assertLimited(await call('POST', '/auth/login', { login: email, password: PASSWORD }));
    // The account is what is limited: another address fares no better.
    assertLimited(await client()('POST', '/auth/login', { login: email, password: PASSWORD }));
  });

  it('forgets failed attempts once the right password is given', async () => {
    const { email } = await account();
    const call = client();
    for (let round = 0; round < 3; round += 1) {
      for (let guess = 0; guess < 4; guess += 1) await call('POST', '/auth/login', { login: email, password: 'nope' });
      assert.equal((await call('POST', '/auth/login', { login: email, password: PASSWORD })).status, 200);
    }
  });

  it('limits one address guessing across many accounts', async () => {
    const call = client();
    const answers: number[] = [];
    for (let n = 0; n < 21; n += 1) {
      answers.push((await call('POST', '/auth/login', { login: `nobody${n}@example.test`, password: 'x' })).status);
    }
    assert.deepEqual(answers.slice(0, 20), Array<number>(20).fill(400));
    assert.equal(answers[20], 429);
  });

  it('refuses the right TOTP code after five wrong ones on a login ticket', async () => {
    const { token, email } = await account();
    const call = client();
    const secret = generateTotpSecret();
    const code = (): string => totpCode(base32Decode(secret) ?? Buffer.alloc(0), Date.now());
    const enabled = await call(
      'POST',
      '/users/@me/mfa/totp/enable',
      { password: PASSWORD, secret, code: code() },
      token,
    );
    assert.equal(enabled.status, 200, enabled.text);
    const ticket = String((await call('POST', '/auth/login', { login: email, password: PASSWORD })).json['ticket']);
    const wrong = code() === '000000' ? '111111' : '000000';
    for (let guess = 0; guess < 5; guess += 1) {
      assert.equal((await call('POST', '/auth/mfa/totp', { ticket, code: wrong })).status, 400);
    }
    assertLimited(await call('POST', '/auth/mfa/totp', { ticket, code: code() }));
  });

  it('limits password guesses on account changes made with a stolen token', async () => {
    const { token } = await account();
    const call = client();
    for (let guess = 0; guess < 5; guess += 1) {
      const answer = await call(
        'PATCH',
        '/users/@me',
        { password: `wrong ${guess}`, new_password: 'taken over' },
        token,
      );
      assert.equal(answer.status, 400);
    }
    assertLimited(await call('PATCH', '/users/@me', { password: PASSWORD, new_password: 'taken over' }, token));
    assertLimited(await call('POST', '/users/@me/delete', { password: PASSWORD }, token));
    // A change that checks no credential is not affected.
    assert.equal((await call('PATCH', '/users/@me', { bio: 'still me' }, token)).status, 200);
  });
});
