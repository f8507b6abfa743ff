import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'mocha';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../voice/browser/ChromiumHarness.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';

/** What the page's fetch saw: the status and body, or the TypeError a refused CORS check gives. */
interface PageFetch {
  readonly status?: number;
  readonly body?: string;
  readonly rateLimitBucket?: string | null;
  readonly error?: string;
}

/** An empty page on its own loopback port: another origin than the node's, as a web client hosted elsewhere is. */
async function servePage(): Promise<Server> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Runs fetch in the page, as a web client's own code would. */
async function fetchFromPage(
  page: Page,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<PageFetch> {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const response = await fetch(url, init);
        return {
          status: response.status,
          body: await response.text(),
          rateLimitBucket: response.headers.get('x-ratelimit-bucket'),
        };
      } catch (error) {
        return { error: String(error) };
      }
    },
    { url, init },
  );
}

describe('a web client served from another origin calls the API from Chromium', function () {
  this.timeout(60_000);
  let server: TestServer;
  let pageServer: Server;
  let browser: Browser;
  let page: Page;
  let user: TestUser;

  before(async () => {
    server = await startTestServer();
    pageServer = await servePage();
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage();
    await page.goto(`http://localhost:${(pageServer.address() as AddressInfo).port}/`);
    user = await registerUser(server.api, 'browser');
  });

  after(async () => {
    await browser?.close();
    pageServer?.close();
    await server?.stop();
  });

  it('reads the caller with an Authorization header, after the preflight allows it', async () => {
    const seen = await fetchFromPage(page, `${server.api}/users/@me`, {
      method: 'GET',
      headers: { Authorization: user.token },
    });
    assert.equal(seen.error, undefined, 'the browser let the page read the answer');
    assert.equal(seen.status, 200);
    assert.equal((JSON.parse(seen.body ?? '{}') as { id?: string }).id, user.id);
  });

  it('answers a preflight naming Authorization, which a wildcard does not cover in Firefox and Safari', async () => {
    const response = await fetch(`${server.api}/channels/1/messages`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://web.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), 'http://web.example');
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    assert.ok(allowed.includes('authorization') && allowed.includes('*'), allowed.join(', '));
    assert.match(response.headers.get('access-control-allow-methods') ?? '', /\bPOST\b/);
  });

  it('sends a JSON message and reads the rate-limit headers of the answer', async () => {
    const guild = await fetchFromPage(page, `${server.api}/guilds`, {
      method: 'POST',
      headers: { Authorization: user.token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'cross origin' }),
    });
    assert.equal(guild.status, 201, guild.error ?? guild.body);
    const guildId = (JSON.parse(guild.body ?? '{}') as { id?: string }).id ?? '';
    const channels = await fetchFromPage(page, `${server.api}/guilds/${guildId}/channels`, {
      method: 'GET',
      headers: { Authorization: user.token },
    });
    const text = (JSON.parse(channels.body ?? '[]') as { id: string; type: number }[]).find((c) => c.type === 0);
    assert.ok(text, channels.error ?? channels.body);
    const sent = await fetchFromPage(page, `${server.api}/channels/${text.id}/messages`, {
      method: 'POST',
      headers: { Authorization: user.token, 'Content-Type': 'application/json', 'X-Super-Properties': 'e30=' },
      body: JSON.stringify({ content: 'hello from elsewhere' }),
    });
    assert.equal(sent.error, undefined, 'the browser let the page read the answer');
    assert.equal(sent.status, 200, sent.body);
    assert.equal((JSON.parse(sent.body ?? '{}') as { content?: string }).content, 'hello from elsewhere');
    assert.equal(sent.rateLimitBucket, 'channel-messages', 'exposed to the page');
  });
});
