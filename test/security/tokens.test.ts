import assert from 'node:assert/strict';
import { GatewayClient } from '../support/GatewayClient.js';
import { registerUser, startTestServer, type TestServer } from '../support/testServer.js';
import { send, tokenVariants } from './securityKit.js';

const PASSWORD = 'correct horse battery';

describe('security: tokens have one spelling and logout cannot be bypassed', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.stop());

  /** Logs in until the token uses `-` or `_` (most do), so the alphabet variant differs from it. */
  async function tokenWithUrlSafeCharacters(email: string): Promise<string> {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const login = await send(server.api, 'POST', '/auth/login', { body: { login: email, password: PASSWORD } });
      const token = String(login.json['token']);
      if (/[-_]/.test(token)) return token;
    }
    throw new Error('ten tokens in a row without - or _');
  }

  async function freshToken(): Promise<string> {
    const user = await registerUser(server.api, 'tok');
    const email = String((await send(server.api, 'GET', '/users/@me', { auth: user.token })).json['email']);
    return tokenWithUrlSafeCharacters(email);
  }

  it('refuses every variant spelling of a live token over REST, and accepts the token itself', async () => {
    const token = await freshToken();
    assert.equal((await send(server.api, 'GET', '/users/@me', { auth: token })).status, 200);
    for (const [variant, spelled] of Object.entries(tokenVariants(token))) {
      assert.notEqual(spelled, token, variant);
      const answer = await send(server.api, 'GET', '/users/@me', { auth: spelled });
      assert.equal(answer.status, 401, `${variant} answered ${answer.status}`);
    }
  });

  it('keeps a logged-out token revoked in every spelling, over REST and the gateway', async () => {
    const token = await freshToken();
    assert.equal((await send(server.api, 'POST', '/auth/logout', { auth: token })).status, 204);
    const spellings = { original: token, ...tokenVariants(token) };
    for (const [variant, spelled] of Object.entries(spellings)) {
      const rest = await send(server.api, 'GET', '/users/@me', { auth: spelled });
      assert.equal(rest.status, 401, `REST with ${variant} answered ${rest.status}`);
      const socket = await GatewayClient.connect(server.gatewayUrl);
      socket.send(2, { token: spelled, properties: { os: 'linux', browser: 'test', device: 'test' } });
      assert.equal((await socket.closed).code, 4004, `gateway with ${variant}`);
    }
  });

  it('refuses a variant of a logged-out token as the credential of logout itself', async () => {
    const token = await freshToken();
    await send(server.api, 'POST', '/auth/logout', { auth: token });
    const again = await send(server.api, 'POST', '/auth/logout', { auth: `${token}=` });
    assert.equal(again.status, 401);
  });
});
