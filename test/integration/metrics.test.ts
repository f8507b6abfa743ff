import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient } from '../support/GatewayClient.js';
import { api, registerUser, startTestServer, type TestServer, type TestUser } from '../support/testServer.js';
import { createGuild, postMessage, type TestGuild } from './gateway/gatewayFixtures.js';
import { parseMetrics, pick, total, type Sample } from './metricsText.js';

async function scrape(server: TestServer, headers: Record<string, string> = {}): Promise<Sample[]> {
  const response = await fetch(`${server.node.url}/metrics`, { headers });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parseMetrics(await response.text());
}

describe('GET /metrics', () => {
  let server: TestServer;
  let alice: TestUser;
  let guild: TestGuild;

  before(async () => {
    server = await startTestServer();
    alice = await registerUser(server.api, 'alice');
    guild = await createGuild(server.api, alice.token);
  });
  after(async () => {
    await server.stop();
  });

  it('counts HTTP requests by route template and status, never by raw URL, with latency buckets', async () => {
    for (let i = 0; i < 3; i += 1) await postMessage(server.api, alice.token, guild.channelId, `hello ${i}`);
    await api(server.api, 'GET', '/channels/1/messages', { token: alice.token, expect: 404 });
    await api(server.api, 'GET', '/no/such/route', { token: alice.token, expect: 404 });
    assert.equal((await fetch(`${server.node.url}/api/v9/-/healthz`)).status, 200);
    const text = await (await fetch(`${server.node.url}/metrics`)).text();
    const samples = parseMetrics(text);
    const messages = { method: 'POST', route: '/api/channels/:channel_id/messages' };
    assert.equal(total(samples, 'chorus_http_requests_total', { ...messages, status: '200' }), 3);
    assert.equal(
      total(samples, 'chorus_http_requests_total', { method: 'GET', route: '/api/channels/:channel_id/messages' }),
      1,
    );
    assert.equal(total(samples, 'chorus_http_requests_total', { route: '/api/auth/register', status: '200' }), 1);
    assert.ok(total(samples, 'chorus_http_requests_total', { route: 'unmatched', status: '404' }) >= 1);
    assert.equal(total(samples, 'chorus_http_requests_total', { method: 'GET', route: '/health', status: '200' }), 1);
    // The histogram: cumulative buckets ending at +Inf, which equals the count.
    const buckets = pick(samples, 'chorus_http_request_duration_seconds_bucket', messages);
    assert.ok(buckets.length >= 10, 'latency buckets');
    assert.equal(buckets.find((bucket) => bucket.labels.le === '+Inf')?.value, 3);
    assert.equal(total(samples, 'chorus_http_request_duration_seconds_count', messages), 3);
    assert.ok(total(samples, 'chorus_http_request_duration_seconds_sum', messages) > 0);
    assert.ok(!text.includes(guild.channelId), 'a channel id leaked into a label');
  });

  it('shows the gateway session, frames both ways, actors by kind, mailboxes, fan-out and storage', async () => {
    const client = await GatewayClient.connect(server.gatewayUrl);
    try {
      await client.identify(alice.token);
      await postMessage(server.api, alice.token, guild.channelId, 'to my session');
      await client.waitFor('MESSAGE_CREATE', (frame) => frame.t === 'MESSAGE_CREATE');
      const samples = await scrape(server);
      assert.equal(total(samples, 'chorus_gateway_sessions'), 1);
      assert.ok(total(samples, 'chorus_gateway_frames_total', { direction: 'in' }) >= 1); // the Identify
      assert.ok(total(samples, 'chorus_gateway_frames_total', { direction: 'out' }) >= 2); // READY, MESSAGE_CREATE
      for (const kind of ['session', 'user', 'guild', 'channel']) {
        assert.ok(total(samples, 'chorus_actors_active', { kind, state: 'active' }) >= 1, `${kind} actors`);
        assert.equal(pick(samples, 'chorus_actor_mailbox_depth', { kind, of: 'max' }).length, 1);
        assert.ok(pick(samples, 'chorus_actor_mailbox_wait_seconds_bucket', { kind }).length > 0, `${kind} wait`);
      }
      assert.equal(total(samples, 'chorus_actors_active', { kind: 'session', state: 'active' }), 1);
      assert.ok(total(samples, 'chorus_actor_activations_total', { kind: 'user' }) >= 1);
      assert.ok(total(samples, 'chorus_dispatch_fanout_sessions_count') >= 1, 'a fan-out observed');
      assert.ok(total(samples, 'chorus_dispatch_fanout_sessions_sum') >= 1);
      const stored = { backend: 'sqlite', operation: 'messages.insert', outcome: 'ok' };
      // Four messages were stored: three by the first test, one here.
      assert.equal(total(samples, 'chorus_storage_operation_duration_seconds_count', stored), 4);
      assert.equal(total(samples, 'chorus_storage_operation_duration_seconds_count', { outcome: 'error' }), 0);
      assert.equal(total(samples, 'chorus_dependency_up', { dependency: 'storage' }), 1);
      assert.ok(total(samples, 'process_cpu_user_seconds_total') > 0, 'process metrics');
    } finally {
      await client.drop();
    }
  });
});

describe('GET /metrics access', () => {
  it('asks for the configured bearer token: 401 without it or with another, 200 with it', async () => {
    const server = await startTestServer({ CHORUS_METRICS_TOKEN: 'scrape-secret' });
    try {
      const plain = await fetch(`${server.node.url}/metrics`);
      assert.equal(plain.status, 401);
      assert.equal(plain.headers.get('www-authenticate'), 'Bearer');
      const wrong = await fetch(`${server.node.url}/metrics`, { headers: { authorization: 'Bearer guess' } });
      assert.equal(wrong.status, 401);
      const samples = await scrape(server, { authorization: 'Bearer scrape-secret' });
      assert.ok(pick(samples, 'chorus_http_requests_total', { route: '/metrics', status: '401' }).length === 1);
    } finally {
      await server.stop();
    }
  });

  it('is 404 with CHORUS_METRICS=off while the API keeps serving', async () => {
    const server = await startTestServer({ CHORUS_METRICS: 'off' });
    try {
      assert.equal((await fetch(`${server.node.url}/metrics`)).status, 404);
      await registerUser(server.api, 'bob');
    } finally {
      await server.stop();
    }
  });

  it('refuses an unknown CHORUS_METRICS value at start', async () => {
    await assert.rejects(startTestServer({ CHORUS_METRICS: 'maybe' }), /CHORUS_METRICS/);
  });
});
