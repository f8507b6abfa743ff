import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/loadConfig.js';
import { startNode, type RunningNode } from '../../src/main.js';
import { api, registerUser, type TestUser } from '../support/testServer.js';
import { chorus } from './cliRun.js';

const ADMIN_TOKEN = 'operator-secret-for-tests';

describe('chorus rights on a running node', function () {
  this.timeout(60_000);
  let dataDir: string;
  let node: RunningNode | undefined;
  let base: string;
  let env: Record<string, string>;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'chorus-rights-'));
    env = {
      CHORUS_DATA_DIR: dataDir,
      CHORUS_HOST: '127.0.0.1',
      PORT: '0',
      CHORUS_ADMIN_TOKEN: ADMIN_TOKEN,
      CHORUS_LOG_LEVEL: 'silent',
    };
    node = await startNode(loadConfig({}, env));
    base = `${node.url}/api/v10`;
    // The CLI finds the node by PORT, as an operator configures it: give it the port the node bound.
    env.PORT = new URL(node.url).port;
  });
  after(async () => {
    await node?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("changes a right through the user's actor: their very next request uses it, no restart", async () => {
    const user = await registerUser(base, 'live');
    await api(base, 'POST', '/guilds', { token: user.token, body: { name: 'before' }, expect: 201 }); // actor active
    const revoked = await chorus(['rights', 'revoke', user.id, 'create_guilds'], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.doesNotMatch(revoked.stdout, /CREATE_GUILDS|warning/);
    const refused = await api<{ code: number }>(base, 'POST', '/guilds', {
      token: user.token,
      body: { name: 'refused' },
      expect: 403,
    });
    assert.equal(refused.code, 50013);
    // The actor's own account write keeps the new mask (it used to write the rights it had loaded back).
    await api(base, 'PATCH', '/users/@me', { token: user.token, body: { global_name: 'Renamed' } });
    const granted = await chorus(['rights', 'grant', user.id, 'CREATE_GUILDS'], env);
    assert.equal(granted.code, 0, granted.stderr);
    assert.match(granted.stdout, /CREATE_GUILDS/);
    await api(base, 'POST', '/guilds', { token: user.token, body: { name: 'allowed again' }, expect: 201 });
    const shown = await chorus(['rights', 'show', user.id], env);
    assert.equal(shown.stdout, granted.stdout);
  });

  it("accepts an OPERATOR user's token from --token-file instead of the admin token", async () => {
    const operator = await registerUser(base, 'ops');
    const user = await registerUser(base, 'target');
    const grant = await chorus(['rights', 'grant', operator.id, 'OPERATOR'], env);
    assert.equal(grant.code, 0, grant.stderr);
    const tokenFile = join(dataDir, 'ops.token');
    writeFileSync(tokenFile, `${operator.token}\n`, { mode: 0o600 });
    const withoutAdminToken = { ...env, CHORUS_ADMIN_TOKEN: '' };
    const revoked = await chorus(['rights', 'revoke', user.id, 'SEND_MESSAGES', '--token-file', tokenFile], {
      ...withoutAdminToken,
    });
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.doesNotMatch(revoked.stdout, /SEND_MESSAGES/);
  });

  it('refuses a caller with neither the admin token nor OPERATOR: 401 without a credential, 403 for a user', async () => {
    const user: TestUser = await registerUser(base, 'plain');
    const path = `/-/admin/users/${user.id}/rights`;
    const change = { grant: ['OPERATOR'] };
    await api(base, 'PATCH', path, { body: change, expect: 401 });
    await api(base, 'PATCH', path, { token: `Bearer not-${ADMIN_TOKEN}`, body: change, expect: 401 });
    const forbidden = await api<{ code: number }>(base, 'PATCH', path, {
      token: user.token,
      body: change,
      expect: 403,
    });
    assert.equal(forbidden.code, 50013);
    await api(base, 'GET', path, { token: user.token, expect: 403 });
    const cli = await chorus(['rights', 'grant', user.id, 'OPERATOR'], { ...env, CHORUS_ADMIN_TOKEN: '' });
    assert.equal(cli.code, 1);
    assert.match(cli.stderr, /refused \(401/);
    const after = await api<{ names: string[] }>(base, 'GET', path, { token: `Bearer ${ADMIN_TOKEN}` });
    assert.ok(!after.names.includes('OPERATOR'), 'nothing was granted');
  });

  it('answers a bad body, an unknown right and an unknown user in Discord shape', async () => {
    const admin = `Bearer ${ADMIN_TOKEN}`;
    const user = await registerUser(base, 'shape');
    const path = `/-/admin/users/${user.id}/rights`;
    const unknownRight = await api<{ code: number; errors: Record<string, unknown> }>(base, 'PATCH', path, {
      token: admin,
      body: { grant: ['FLY'] },
      expect: 400,
    });
    assert.equal(unknownRight.code, 50035);
    assert.ok('grant' in unknownRight.errors);
    await api(base, 'PATCH', path, { token: admin, body: { revoke: 'OPERATOR' }, expect: 400 });
    const unknownUser = await api<{ code: number }>(base, 'GET', '/-/admin/users/1234567890/rights', {
      token: admin,
      expect: 404,
    });
    assert.equal(unknownUser.code, 10013);
  });
});
