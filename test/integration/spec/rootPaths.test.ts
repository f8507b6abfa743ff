import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { startTestServer, type TestServer } from '../../support/testServer.js';

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  assert.equal(response.status, 200, `GET ${url}`);
  assert.match(response.headers.get('content-type') ?? '', /application\/json/);
  return (await response.json()) as T;
}

/** The paths outside /api: instance discovery (both Spacebar versions), health checks, default avatars. */
describe('root paths', () => {
  let server: TestServer;
  let root: string;

  before(async () => {
    server = await startTestServer();
    root = server.api.replace(/\/api\/v10$/, '');
  });
  after(() => server.stop());

  it('answers /.well-known/spacebar with the API, whose domains policy names API, CDN and gateway', async () => {
    const { api } = await getJson<{ api: string }>(`${root}/.well-known/spacebar`);
    assert.equal(api, `${root}/api/v9`);
    const domains = await getJson<{ apiEndpoint: string; cdn: string; gateway: string }>(
      `${api}/policies/instance/domains`,
    );
    assert.equal(domains.cdn, root);
    assert.equal(domains.gateway, server.gatewayUrl);
    const ping = await getJson<{ ping: string }>(`${domains.apiEndpoint}/v9/ping`);
    assert.equal(ping.ping, 'pong!');
  });

  it('answers /.well-known/spacebar/client with API versions, CDN and gateway in one document', async () => {
    const client = await getJson<{
      api: { baseUrl: string; apiVersions: { default: string; active: string[] } };
      cdn: { baseUrl: string };
      gateway: { baseUrl: string; encoding: string[]; compression: (string | null)[] };
    }>(`${root}/.well-known/spacebar/client`);
    assert.equal(client.cdn.baseUrl, root);
    assert.equal(client.gateway.baseUrl, server.gatewayUrl);
    assert.deepEqual(client.gateway.encoding, ['json']);
    assert.ok(client.api.apiVersions.active.includes(client.api.apiVersions.default));
    // A client builds the API URL as baseUrl + "/api/v" + default.
    const ping = await getJson<{ ping: string }>(`${client.api.baseUrl}/api/v${client.api.apiVersions.default}/ping`);
    assert.equal(ping.ping, 'pong!');
  });

  it('answers the health paths orchestrators and Spacebar clients poll', async () => {
    for (const path of ['/health', '/healthz', '/readyz', '/api/-/healthz', '/api/v9/-/healthz', '/api/v9/-/readyz']) {
      const report = await getJson<{ status: string }>(`${root}${path}`);
      assert.equal(report.status, 'ok', path);
    }
  });

  it('serves the six default avatars discord.js links to, and 404 for any other index', async () => {
    for (const index of [0, 5]) {
      const response = await fetch(`${root}/embed/avatars/${index}.png`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'image/png');
      const bytes = Buffer.from(await response.arrayBuffer());
      assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG');
    }
    assert.equal((await fetch(`${root}/embed/avatars/6.png`)).status, 404);
  });
});
