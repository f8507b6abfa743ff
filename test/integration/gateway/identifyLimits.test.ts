import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient, type GatewayFrame } from '../../support/GatewayClient.js';
import { api, registerUser, startTestServer, type TestServer } from '../../support/testServer.js';
import { createBot } from './gatewayFixtures.js';

interface SessionStartLimit {
  total: number;
  remaining: number;
  reset_after: number;
  max_concurrency: number;
}

const DAY_MS = 86_400_000;

async function sessionStartLimit(server: TestServer, user: { token: string }): Promise<SessionStartLimit> {
  const body = await api<{ url: string; shards: number; session_start_limit: SessionStartLimit }>(
    server.api,
    'GET',
    '/gateway/bot',
    { token: user.token },
  );
  assert.equal(body.url, server.gatewayUrl);
  assert.equal(body.shards, 1);
  return body.session_start_limit;
}

/** A bot of a fresh owner: the limits count bots' Identifies (GET /gateway/bot is a bot endpoint). */
async function botNamed(server: TestServer, name: string): Promise<{ token: string }> {
  const owner = await registerUser(server.api, `${name}-owner`);
  return createBot(server.api, owner.token, name);
}

/** Opens a socket, identifies and resolves with the gateway's answer: READY, or op 9 (the socket stays open). */
async function identifyAnswer(
  server: TestServer,
  token: string,
  extra: Record<string, unknown> = {},
): Promise<{ client: GatewayClient; answer: GatewayFrame }> {
  const client = await GatewayClient.connect(server.gatewayUrl);
  await client.waitFor('Hello', (frame) => frame.op === 10);
  client.send(2, { token, properties: { os: 'linux', browser: 'chorus-test', device: 'chorus-test' }, ...extra });
  const answer = await client.waitFor('READY or op 9', (frame) => frame.op === 9 || frame.t === 'READY');
  return { client, answer };
}

/** Asserts an op 9 d:false answer and that no READY follows (a heartbeat's ACK comes back first). */
async function assertRefused(client: GatewayClient, answer: GatewayFrame): Promise<void> {
  assert.deepEqual({ op: answer.op, d: answer.d }, { op: 9, d: false });
  const from = client.frames.length;
  client.send(1, null);
  await client.waitFor('heartbeat ACK', (frame) => frame.op === 11, { from });
  assert.equal(client.dispatches('READY').length, 0, 'no session was started');
}

describe('gateway Identify limits', () => {
  let server: TestServer;
  const open: GatewayClient[] = [];

  before(async () => {
    server = await startTestServer({ CHORUS_IDENTIFY_WINDOW_MS: '5000', CHORUS_MAX_CONCURRENCY: '2' });
  });
  after(async () => {
    await Promise.all(open.map((client) => client.drop()));
    await server.stop();
  });

  async function identify(token: string, extra: Record<string, unknown> = {}): Promise<GatewayFrame> {
    const { client, answer } = await identifyAnswer(server, token, extra);
    open.push(client);
    if (answer.op === 9) await assertRefused(client, answer);
    return answer;
  }

  it('refuses a second Identify on the same concurrency bucket within 5 s with op 9 d:false, and takes another bucket', async () => {
    const user = await botNamed(server, 'sharded');
    assert.equal((await identify(user.token, { shard: [0, 2] })).t, 'READY');
    const again = await identify(user.token, { shard: [0, 2] });
    assert.deepEqual({ op: again.op, d: again.d }, { op: 9, d: false });
    // shard 1 of 2 with max_concurrency 2: bucket 1, free.
    assert.equal((await identify(user.token, { shard: [1, 2] })).t, 'READY');
  });

  it('keeps the buckets per user', async () => {
    const [first, second] = [await botNamed(server, 'one'), await botNamed(server, 'two')];
    assert.equal((await identify(first.token)).t, 'READY');
    assert.equal((await identify(second.token)).t, 'READY');
  });

  it('does not limit Resume, nor count it as a session start', async () => {
    const user = await botNamed(server, 'resumer');
    const { client, answer } = await identifyAnswer(server, user.token);
    assert.equal(answer.t, 'READY');
    const sessionId = String((answer.d as Record<string, unknown>)['session_id']);
    await client.drop();
    const before = await sessionStartLimit(server, user);
    // Within the same 5 s window and bucket as the Identify.
    const resumed = await GatewayClient.connect(server.gatewayUrl);
    open.push(resumed);
    await resumed.waitFor('Hello', (frame) => frame.op === 10);
    resumed.send(6, { token: user.token, session_id: sessionId, seq: client.lastSeq ?? 0 });
    await resumed.waitForDispatch('RESUMED');
    assert.equal((await sessionStartLimit(server, user)).remaining, before.remaining);
  });

  it('reports the real session-start budget in GET /gateway/bot: one less per Identify, reset within 24 h', async () => {
    const user = await botNamed(server, 'counted');
    const fresh = await sessionStartLimit(server, user);
    assert.deepEqual(fresh, { total: 1000, remaining: 1000, reset_after: DAY_MS, max_concurrency: 2 });
    assert.deepEqual(await sessionStartLimit(server, user), fresh, 'reading the budget does not spend it');
    await identify(user.token, { shard: [0, 2] });
    const once = await sessionStartLimit(server, user);
    assert.equal(once.remaining, 999);
    assert.ok(once.reset_after > 0 && once.reset_after <= DAY_MS, `reset_after ${once.reset_after}`);
    await identify(user.token, { shard: [1, 2] });
    const twice = await sessionStartLimit(server, user);
    assert.equal(twice.remaining, 998);
    assert.ok(twice.reset_after <= once.reset_after, 'the window does not restart');
  });

  it('does not throttle a person: several clients of one user account identify at once', async () => {
    const person = await registerUser(server.api, 'person');
    const answers = await Promise.all([0, 1, 2].map(() => identify(person.token)));
    assert.deepEqual(
      answers.map((answer) => answer.t),
      ['READY', 'READY', 'READY'],
    );
  });

  it('does not spend the budget of the user a forged token names', async () => {
    const user = await botNamed(server, 'victim');
    const [idPart] = user.token.split('.');
    const forged = `${idPart ?? ''}.MTox.c2lnbmF0dXJl`;
    const client = await GatewayClient.connect(server.gatewayUrl);
    client.send(2, { token: forged, properties: { os: 'linux', browser: 'x', device: 'x' } });
    assert.equal((await client.closed).code, 4004);
    const limit = await sessionStartLimit(server, user);
    assert.equal(limit.remaining, limit.total);
    // Nor its concurrency bucket: the real token still identifies at once.
    assert.equal((await identify(user.token)).t, 'READY');
  });
});

describe('gateway daily session-start budget', () => {
  let server: TestServer;
  let user: { token: string };
  const open: GatewayClient[] = [];

  before(async () => {
    server = await startTestServer({ CHORUS_SESSION_START_LIMIT: '2', CHORUS_IDENTIFY_WINDOW_MS: '0' });
    user = await botNamed(server, 'thrifty');
  });
  after(async () => {
    await Promise.all(open.map((client) => client.drop()));
    await server.stop();
  });

  it('refuses an Identify once the budget is spent with op 9 d:false, and READY never comes', async () => {
    for (let start = 0; start < 2; start += 1) {
      const { client, answer } = await identifyAnswer(server, user.token);
      open.push(client);
      assert.equal(answer.t, 'READY');
    }
    const spent = await sessionStartLimit(server, user);
    assert.equal(spent.total, 2);
    assert.equal(spent.remaining, 0);
    const { client, answer } = await identifyAnswer(server, user.token);
    open.push(client);
    await assertRefused(client, answer);
  });
});
