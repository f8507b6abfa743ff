import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/loadConfig.js';
import { startNode, type RunningNode } from '../../src/main.js';
import { api, registerUser, type TestUser } from '../support/testServer.js';
import { chorus } from './cliRun.js';

describe('chorus CLI on an embedded data dir', function () {
  this.timeout(60_000);
  let dataDir: string;
  let node: RunningNode | undefined;
  let base: string;

  const start = async (settings: Record<string, string> = {}): Promise<void> => {
    const config = loadConfig(
      {},
      { PORT: '0', CHORUS_HOST: '127.0.0.1', CHORUS_DATA_DIR: dataDir, CHORUS_LOG_LEVEL: 'silent', ...settings },
    );
    node = await startNode(config);
    base = `${node.url}/api/v10`;
  };
  const stop = async (): Promise<void> => {
    await node?.close();
    node = undefined;
  };

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'chorus-cli-'));
  });
  after(async () => {
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("is the package's `chorus` bin, so `npx chorus` runs it in a checkout", () => {
    const root = join(import.meta.dirname, '..', '..');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin?: Record<string, string> };
    assert.equal(pkg.bin?.chorus, 'bin/chorus.mjs');
    const launcher = join(root, 'bin', 'chorus.mjs');
    assert.ok((statSync(launcher).mode & 0o111) !== 0, 'executable');
    assert.match(readFileSync(launcher, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  });

  it('answers an unknown command and a bare call with the usage and exit status 2', async () => {
    const unknown = await chorus(['frobnicate'], { CHORUS_DATA_DIR: dataDir });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command frobnicate/);
    assert.match(unknown.stderr, /usage: chorus <command>/);
    const bare = await chorus([], { CHORUS_DATA_DIR: dataDir });
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /rights grant <user id>/);
  });

  it('refuses a data dir without a Chorus database instead of creating an empty one', async () => {
    const stats = await chorus(['stats'], { CHORUS_DATA_DIR: join(dataDir, 'mistyped') });
    assert.equal(stats.code, 1);
    assert.match(stats.stderr, /no Chorus database at .*mistyped/);
  });

  it('counts users, guilds, messages and members the same in GET /policies/stats/ and `chorus stats`', async () => {
    await start();
    const owner = await registerUser(base, 'statsowner');
    const member = await registerUser(base, 'statsmember');
    const guild = await api<{ id: string }>(base, 'POST', '/guilds', {
      token: owner.token,
      body: { name: 'counted' },
      expect: 201,
    });
    const channels = await api<{ id: string; type: number }[]>(base, 'GET', `/guilds/${guild.id}/channels`, {
      token: owner.token,
    });
    const text = channels.find((channel) => channel.type === 0);
    assert.ok(text, 'a new guild has a text channel');
    for (const content of ['one', 'two', 'three']) {
      await api(base, 'POST', `/channels/${text.id}/messages`, { token: owner.token, body: { content } });
    }
    const stats = await api<{ counts: Record<string, number> }>(base, 'GET', '/policies/stats/', {
      token: member.token,
    });
    assert.deepEqual(stats.counts, { user: 2, guild: 1, message: 3, members: 1 });
    await api(base, 'GET', '/policies/stats/', { expect: 401 });
    await stop();
    const cli = await chorus(['stats'], { CHORUS_DATA_DIR: dataDir });
    assert.equal(cli.code, 0, cli.stderr);
    assert.deepEqual(JSON.parse(cli.stdout), { counts: { user: 2, guild: 1, message: 3, members: 1 } });
  });

  it('revokes and grants an instance right in the store while no node runs, with a warning', async () => {
    // PORT 0 names no node to try: the CLI goes to the store at once, whatever else listens on this host.
    const offline = { CHORUS_DATA_DIR: dataDir, PORT: '0' };
    await start();
    const user: TestUser = await registerUser(base, 'rightful');
    await stop();
    const revoked = await chorus(['rights', 'revoke', user.id, 'create_guilds'], offline);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.doesNotMatch(revoked.stdout, /CREATE_GUILDS/);
    await start();
    const refused = await api<{ code: number }>(base, 'POST', '/guilds', {
      token: user.token,
      body: { name: 'not allowed' },
      expect: 403,
    });
    assert.equal(refused.code, 50013);
    await stop();
    const granted = await chorus(['rights', 'grant', user.id, 'CREATE_GUILDS', 'VIEW_SERVER_STATS'], offline);
    assert.equal(granted.code, 0, granted.stderr);
    assert.match(granted.stdout, /CREATE_GUILDS.*VIEW_SERVER_STATS/);
    const shown = await chorus(['rights', 'show', user.id], offline);
    assert.equal(shown.stdout, `${granted.stdout.split('\n')[0] ?? ''}\n`);
    assert.match(granted.stdout, /warning: no running node answered/);
    await start();
    await api(base, 'POST', '/guilds', { token: user.token, body: { name: 'allowed' }, expect: 201 });
  });

  it('describes the instance in GET /policies/instance/ and /ping as CHORUS_INSTANCE_* configure it', async () => {
    await stop();
    await start({
      CHORUS_INSTANCE_NAME: 'Harbour',
      CHORUS_INSTANCE_DESCRIPTION: 'A chat for the harbour club',
      CHORUS_INSTANCE_TOS_PAGE: 'https://harbour.example/tos',
      CHORUS_INSTANCE_EMAIL: 'ops@harbour.example',
    });
    const policy = await api<Record<string, unknown>>(base, 'GET', '/policies/instance/');
    assert.equal(policy.instanceName, 'Harbour');
    assert.equal(policy.instanceDescription, 'A chat for the harbour club');
    assert.equal(policy.tosPage, 'https://harbour.example/tos');
    assert.equal(policy.correspondenceEmail, 'ops@harbour.example');
    assert.equal(policy.frontPage, null, 'not configured: null');
    const ping = await api<{ instance: Record<string, unknown> }>(base, 'GET', '/ping');
    assert.equal(ping.instance.name, 'Harbour');
    assert.equal(ping.instance.tosPage, 'https://harbour.example/tos');
    await stop();
    assert.throws(() => loadConfig({}, { CHORUS_INSTANCE_TOS_PAGE: 'not a url' }), /CHORUS_INSTANCE_TOS_PAGE/);
  });

  it('refuses an unknown right, a malformed id and an unknown user without touching any account', async () => {
    const env = { CHORUS_DATA_DIR: dataDir, PORT: '0' };
    const badRight = await chorus(['rights', 'grant', '1234567890', 'FLY'], env);
    assert.equal(badRight.code, 2);
    assert.match(badRight.stderr, /unknown right FLY/);
    const badId = await chorus(['rights', 'grant', 'alice', 'OPERATOR'], env);
    assert.equal(badId.code, 2);
    const unknownUser = await chorus(['rights', 'grant', '1234567890', 'OPERATOR'], env);
    assert.equal(unknownUser.code, 1);
    assert.match(unknownUser.stderr, /unknown user 1234567890/);
  });
});
