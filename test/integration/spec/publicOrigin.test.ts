import assert from 'node:assert/strict';
import { request } from 'node:http';

import WebSocket from 'ws';

import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { createGuild } from '../guilds/guildKit.js';

/** The port the server listens on (its URL may be CHORUS_PUBLIC_URL). */
function portOf(server: TestServer): number {
  const address = server.node.server.address();
  assert.ok(address !== null && typeof address === 'object');
  return address.port;
}

/** The API base at the server's own socket. */
const localApi = (server: TestServer): string => `http://127.0.0.1:${portOf(server)}/api/v10`;

/** One HTTP request to the server's socket with the Host (and other headers) a client would send. */
async function ask(
  server: TestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: { bytes: Buffer; type: string },
): Promise<{ status: number; json: Record<string, unknown> }> {
  const port = portOf(server);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, method, path, headers: body ? { ...headers, 'content-type': body.type } : headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: response.statusCode ?? 0,
            json: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body?.bytes);
  });
}

/** A multipart body with one file, as bytes and content type (built by fetch's own encoder). */
async function multipart(fields: Record<string, string>, file: string): Promise<{ bytes: Buffer; type: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('files[0]', new Blob([file], { type: 'text/plain' }), 'note.txt');
  const encoded = new Request('http://encoder.invalid', { method: 'POST', body: form });
  return { bytes: Buffer.from(await encoded.arrayBuffer()), type: encoded.headers.get('content-type') ?? '' };
}

/** Every URL the discovery and gateway routes give, read with `headers`. */
async function discoveredUrls(server: TestServer, headers: Record<string, string>, token: string): Promise<string[]> {
  const gateway = await ask(server, 'GET', '/api/v10/gateway', headers);
  const gatewayBot = await ask(server, 'GET', '/api/v10/gateway/bot', { ...headers, authorization: token });
  const v1 = await ask(server, 'GET', '/.well-known/spacebar', headers);
  const v2 = (await ask(server, 'GET', '/.well-known/spacebar/client', headers)).json as Record<
    string,
    { baseUrl: string }
  >;
  const domains = (await ask(server, 'GET', '/api/v9/policies/instance/domains', headers)).json;
  return [
    gateway.json['url'],
    gatewayBot.json['url'],
    v1.json['api'],
    v2['api']?.baseUrl,
    v2['cdn']?.baseUrl,
    v2['gateway']?.baseUrl,
    domains['cdn'],
    domains['gateway'],
    domains['apiEndpoint'],
  ].map(String);
}

/** READY's resume_gateway_url for a gateway connection made with `host` as its Host header. */
async function resumeUrlOf(server: TestServer, host: string, token: string): Promise<string> {
  const socket = new WebSocket(`ws://127.0.0.1:${portOf(server)}/?v=10&encoding=json`, { headers: { host } });
  try {
    return await new Promise<string>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('open', () => {
        socket.send(
          JSON.stringify({ op: 2, d: { token, properties: { os: 'linux', browser: 'test', device: 'test' } } }),
        );
      });
      socket.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString('utf8')) as { t?: string; d: { resume_gateway_url?: string } };
        if (frame.t === 'READY') resolve(String(frame.d.resume_gateway_url));
      });
    });
  } finally {
    socket.close();
  }
}

/** Each URL, with its scheme and host, is one of `origins` (http and ws forms of the same host). */
function assertAllFrom(urls: string[], origins: string[]): void {
  for (const url of urls) {
    assert.ok(
      origins.some((origin) => url === origin || url.startsWith(`${origin}/`)),
      `${url} not from ${origins.join(' or ')}`,
    );
  }
}

describe('one public origin', () => {
  describe('with CHORUS_PUBLIC_URL unset', () => {
    let server: TestServer;
    let port: string;
    let user: TestUser;

    before(async () => {
      server = await startTestServer();
      port = new URL(server.node.url).port;
      user = await registerUser(localApi(server), 'origin');
    });
    after(async () => server.stop());

    for (const name of ['127.0.0.1', 'localhost']) {
      it(`gives the gateway, API and CDN URLs of the host asked (${name})`, async () => {
        const host = `${name}:${port}`;
        const urls = await discoveredUrls(server, { host }, user.token);
        assertAllFrom(urls, [`http://${host}`, `ws://${host}`]);
        assert.ok(urls.includes(`ws://${host}`), 'the gateway URL is the bare ws:// origin');
        assert.ok(urls.includes(`http://${host}/api/v9`));
        assert.equal(await resumeUrlOf(server, host, user.token), `ws://${host}`);
      });
    }

    it('builds webhook and attachment URLs from the host asked', async () => {
      const host = `localhost:${port}`;
      const { textChannelId } = await createGuild(localApi(server), user);
      const headers = { host, authorization: user.token, 'content-type': 'application/json' };
      const webhook = await ask(server, 'POST', `/api/v10/channels/${textChannelId}/webhooks`, headers, {
        bytes: Buffer.from(JSON.stringify({ name: 'hook' })),
        type: 'application/json',
      });
      assert.match(String(webhook.json['url']), new RegExp(`^http://${host}/api/webhooks/`));
      const upload = await multipart({ content: 'see file' }, 'hello');
      const message = await ask(server, 'POST', `/api/v10/channels/${textChannelId}/messages`, headers, upload);
      const [attachment] = message.json['attachments'] as { url: string }[];
      assert.match(attachment?.url ?? '', new RegExp(`^http://${host}/attachments/`));
      const file = await fetch(attachment?.url.replace(host, `127.0.0.1:${port}`) ?? '');
      assert.equal(await file.text(), 'hello');
    });

    it('ignores X-Forwarded-Host and -Proto from a client that is not a trusted proxy', async () => {
      const headers = { host: `127.0.0.1:${port}`, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
      assertAllFrom(await discoveredUrls(server, headers, user.token), [
        `http://127.0.0.1:${port}`,
        `ws://127.0.0.1:${port}`,
      ]);
    });

    it('falls back to its own address when the Host header cannot be an origin', async () => {
      const urls = await discoveredUrls(server, { host: 'a/b@c' }, user.token);
      assertAllFrom(urls, [server.node.url, server.gatewayUrl]);
    });

    it('serves the instance configuration web clients read before login, from the configured limits', async () => {
      const { status, json } = await ask(server, 'GET', '/api/policies/instance/config', { host: `localhost:${port}` });
      assert.equal(status, 200);
      assert.equal(json['limits_message_maxAttachmentSize'], 26_214_400);
      assert.equal(json['limits_message_maxCharacters'], 2000);
      assert.equal(json['register_disabled'], false);
      assert.equal(typeof json['can_recover_account'], 'boolean');
    });
  });

  describe('behind a trusted proxy', () => {
    let server: TestServer;
    let user: TestUser;

    before(async () => {
      server = await startTestServer({ CHORUS_TRUSTED_PROXIES: 'loopback', CHORUS_MAX_UPLOAD_BYTES: '1048576' });
      user = await registerUser(localApi(server), 'proxied');
    });
    after(async () => server.stop());

    it('takes the origin from the X-Forwarded-Host and -Proto the proxy sets', async () => {
      const headers = { host: 'internal:8080', 'x-forwarded-host': 'chat.example.test', 'x-forwarded-proto': 'https' };
      const urls = await discoveredUrls(server, headers, user.token);
      assertAllFrom(urls, ['https://chat.example.test', 'wss://chat.example.test']);
      assert.ok(urls.includes('wss://chat.example.test'));
    });

    it('gives the configured upload size in the instance configuration', async () => {
      const { json } = await ask(server, 'GET', '/api/v9/policies/instance/config', {});
      assert.equal(json['limits_message_maxAttachmentSize'], 1_048_576);
    });
  });

  describe('with CHORUS_PUBLIC_URL set', () => {
    let server: TestServer;
    let user: TestUser;

    before(async () => {
      server = await startTestServer({ CHORUS_PUBLIC_URL: 'https://chat.example.test' });
      user = await registerUser(localApi(server), 'public');
    });
    after(async () => server.stop());

    it('takes every URL from it, whatever the Host', async () => {
      for (const host of ['127.0.0.1', 'localhost:1234']) {
        const urls = await discoveredUrls(server, { host }, user.token);
        assertAllFrom(urls, ['https://chat.example.test', 'wss://chat.example.test']);
        assert.ok(urls.includes('wss://chat.example.test'));
        assert.equal(await resumeUrlOf(server, host, user.token), 'wss://chat.example.test');
      }
    });
  });
});
