import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; services-up installs it in CI, so a missing binary fails the test rather than skipping it. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
  '--use-fake-ui-for-media-stream',
  // The voice port's wss:// uses the node's self-signed certificate.
  '--ignore-certificate-errors',
  // The SFU's one candidate is on 127.0.0.1; Chromium gathers no loopback candidate without this switch, and never
  // pairs a candidate on another interface with a loopback one, so ICE would fail on a machine that has one.
  '--allow-loopback-in-peer-connection',
];

const HERE = fileURLToPath(new URL('.', import.meta.url));
/** The page's files, served by name only (nothing else on disk is reachable). */
const SCRIPTS = ['voicePage.mjs', 'pageSignalling.mjs', 'webClientSdp.mjs'];
const INDEX =
  '<!doctype html><html><head><meta charset="utf-8"><title>chorus voice</title>' +
  '<script type="module" src="/voicePage.mjs"></script></head><body>chorus voice test page</body></html>';

/** Serves the voice page on loopback: an http:// origin on 127.0.0.1 is a secure context for WebRTC and WebAudio. */
async function servePage(): Promise<Server> {
  const server = createServer((request, response) => {
    const name = (request.url ?? '/').slice(1);
    if (name === '') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(INDEX);
    } else if (SCRIPTS.includes(name)) {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(join(HERE, name)));
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** One headless Chromium with a fresh profile, and the local server its voice pages load from. */
export class ChromiumHarness {
  private constructor(
    private readonly context: BrowserContext,
    private readonly pageServer: Server,
    private readonly profileDir: string,
  ) {}

  static async launch(): Promise<ChromiumHarness> {
    if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing (services-up installs chromium)`);
    const profileDir = mkdtempSync(join(tmpdir(), 'chorus-chromium-'));
    const pageServer = await servePage();
    try {
      const context = await chromium.launchPersistentContext(profileDir, {
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: CHROMIUM_ARGS,
      });
      return new ChromiumHarness(context, pageServer, profileDir);
    } catch (error) {
      pageServer.close();
      rmSync(profileDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** A new tab with the voice page loaded (window.chorus ready); page errors are kept for failure messages. */
  async openVoicePage(): Promise<Page> {
    const page = await this.context.newPage();
    page.on('pageerror', (error) => {
      console.error(`[chromium page] ${error.message}`);
    });
    const { port } = this.pageServer.address() as AddressInfo;
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => (globalThis as { chorusLoaded?: boolean }).chorusLoaded === true);
    return page;
  }

  /** Closes the browser, the page server and the profile, even when a test failed midway. */
  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    await new Promise<void>((resolve) => {
      this.pageServer.close(() => {
        resolve();
      });
      this.pageServer.closeAllConnections();
    });
    rmSync(this.profileDir, { recursive: true, force: true });
  }
}
