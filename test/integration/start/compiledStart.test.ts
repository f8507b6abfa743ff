import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * Issue 15 §1: `npm start` runs the compiled JavaScript (dist/, source maps on), no TypeScript loader. The build
 * (`npm start`'s prestart) runs here only when dist/ is missing or stale: about 12 s on an idle 2-core machine,
 * 20-40 s under load, nothing when fresh.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BUILD_TIMEOUT_MS = 180_000;
const START_TIMEOUT_MS = 30_000;
/** The command `npm start` runs after its prestart (package.json). */
const START_ARGS = ['--enable-source-maps', 'dist/src/main.js'];

interface Started {
  readonly url: string;
  readonly exited: Promise<number | null>;
  stop(): void;
}

function startCompiled(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, START_ARGS, {
    cwd: ROOT,
    env: { ...process.env, CHORUS_HOST: '127.0.0.1', CHORUS_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const stderr: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no node_started within ${START_TIMEOUT_MS} ms:\n${stderr.join('\n')}`));
    }, START_TIMEOUT_MS);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${String(code)} before node_started:\n${stderr.join('\n')}`));
    });
    createInterface({ input: child.stderr }).on('line', (line) => {
      stderr.push(line);
      if (!line.includes('"event":"node_started"')) return;
      clearTimeout(timer);
      const entry = JSON.parse(line) as { url: string };
      resolve({ url: entry.url, exited, stop: () => child.kill('SIGTERM') });
    });
  });
}

describe('production start from compiled JavaScript (npm start)', function () {
  this.timeout(BUILD_TIMEOUT_MS + START_TIMEOUT_MS);
  let dataDir = '';

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'chorus-compiled-'));
    await new Promise<void>((resolve, reject) => {
      execFile(
        process.execPath,
        ['scripts/build.mjs', '--if-stale'],
        { cwd: ROOT, timeout: BUILD_TIMEOUT_MS },
        (error, _stdout, stderr) => {
          if (error) reject(new Error(`scripts/build.mjs --if-stale failed: ${stderr}`, { cause: error }));
          else resolve();
        },
      );
    });
  });

  after(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the API from dist/src/main.js on an ephemeral port and stops on SIGTERM', async () => {
    const node = await startCompiled({ PORT: '0', CHORUS_DATA_DIR: dataDir });
    try {
      const response = await fetch(`${node.url}/api/v10/gateway`);
      assert.equal(response.status, 200);
      const body = (await response.json()) as { url?: unknown };
      assert.match(String(body.url), /^wss?:\/\//);
    } finally {
      node.stop();
    }
    assert.equal(await node.exited, 0, 'a graceful stop exits 0');
  });

  it('names the TypeScript source in a stack trace (source maps)', async () => {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        START_ARGS,
        { cwd: ROOT, env: { ...process.env, PORT: 'not-a-port', CHORUS_DATA_DIR: dataDir } },
        (error, _stdout, text) => {
          resolve({ code: typeof error?.code === 'number' ? error.code : 0, stderr: text });
        },
      );
    });
    assert.notEqual(code, 0);
    assert.match(stderr, /PORT \(http\.port\) must be an integer/);
    assert.match(stderr, /at loadConfig \(.*src\/config\/loadConfig\.ts:\d+:\d+\)/);
  });
});
