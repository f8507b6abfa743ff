import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** A server process the benchmark drives. */
export interface ServerProcess {
  readonly pid: number;
  readonly baseUrl: string;
  stop(): Promise<void>;
}

const ROOT = new URL('..', import.meta.url).pathname;

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => {
      resolve();
    });
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  });
}

async function waitForPing(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server at ${url} did not answer within 60 s`);
}

/** How a Chorus node is run: `compiled` as `npm start` runs it (dist/), `tsx` from the TypeScript sources. */
export type ChorusEntry = 'compiled' | 'tsx';

/** Node's arguments for a Chorus node run the `entry` way (cwd: the repository root). */
export function chorusArgs(entry: ChorusEntry): string[] {
  const args = entry === 'compiled' ? ['--enable-source-maps', 'dist/src/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  // BENCH_CPU_PROF=dir: a V8 CPU profile of the node, written on exit (scripts/cpuProfileSummary.ts reads them).
  const profileDir = process.env.BENCH_CPU_PROF;
  return profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, ...args] : args;
}

let built: Promise<void> | undefined;

/** Compiles dist/ when it is missing or stale (scripts/build.mjs --if-stale), once per bench process. */
export function ensureBuilt(): Promise<void> {
  built ??= new Promise((resolve, reject) => {
    execFile(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT }, (error, _stdout, stderr) => {
      if (stderr.trim() !== '') process.stderr.write(stderr);
      if (error) reject(new Error(`scripts/build.mjs failed: ${error.message}`));
      else resolve();
    });
  });
  return built;
}

/**
 * Starts an embedded Chorus node on a free port with rate limits lifted (the bench measures capacity), compiled
 * as users run it unless `entry` says otherwise.
 */
export async function startChorus(
  port: number,
  extraEnv: Record<string, string> = {},
  // BENCH_CHORUS_ENTRY=tsx: a "before" run of the sources under tsx, to compare with a compiled one.
  entry: ChorusEntry = process.env.BENCH_CHORUS_ENTRY === 'tsx' ? 'tsx' : 'compiled',
): Promise<ServerProcess> {
  if (entry === 'compiled') await ensureBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'chorus-bench-'));
  const child = spawn(process.execPath, chorusArgs(entry), {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      CHORUS_HOST: '127.0.0.1',
      CHORUS_DATA_DIR: dataDir,
      CHORUS_LOG_LEVEL: 'error',
      CHORUS_PASSWORD_COST: '1024',
      CHORUS_GLOBAL_RATE_LIMIT: '1000000',
      CHORUS_MESSAGE_RATE_LIMIT: '1000000',
      CHORUS_IDENTIFY_WINDOW_MS: '0', // the bench opens its sessions in a burst, many per user
      CHORUS_SESSION_START_LIMIT: '1000000',
      // Off the bench's own ports (the default, HTTP port + 1, is the next server's HTTP port).
      CHORUS_VOICE_PORT: String(port + 10_000),
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForPing(`${baseUrl}/api/v10/ping`, child);
  return {
    pid: child.pid ?? 0,
    baseUrl,
    stop: async () => {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts the bare Koa/ws baseline. */
export async function startBaseline(): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bareServer.ts', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const port = await new Promise<number>((resolve, reject) => {
    lines.once('line', (line) => {
      resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => {
      reject(new Error(`baseline exited with ${String(code)}`));
    });
  });
  return { pid: child.pid ?? 0, baseUrl: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}
