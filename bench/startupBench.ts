// Start-up row (issue 15 §1): the compiled server (`npm start`) beside the same sources under the tsx loader.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chorusArgs, ensureBuilt, type ChorusEntry, type ServerProcess } from './processes.js';
import { cpuMs, rssBytes } from './stats.js';

const ROOT = new URL('..', import.meta.url).pathname;
const READY_TIMEOUT_MS = 60_000;

/** One way of starting Chorus, over several starts (medians: a start pays for whatever else the machine does). */
export interface StartupRun {
  readonly entry: ChorusEntry;
  /** Spawn to the `node_started` log line (the HTTP and gateway port listening), each start. */
  readonly startsMs: number[];
  /** Their median. */
  readonly startMs: number;
  /** Resident set size once listening, before any client connected (median). */
  readonly rssBytes: number;
  /** CPU time the process used until listening (median): on a shared machine steadier than the wall time. */
  readonly cpuMs: number;
}

/** The row: compiled and tsx, started alternately so that load drifts hit both alike. */
export interface StartupRow {
  readonly compiled: StartupRun;
  readonly tsx: StartupRun;
  /** The bare Koa/ws baseline's RSS before its first client (it runs under the tsx loader). */
  readonly baselineRssBytes: number;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

/** Starts one node, waits for `node_started`, reads its RSS, stops it. */
async function startOnce(entry: ChorusEntry): Promise<{ startMs: number; rssBytes: number; cpuMs: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chorus-startup-'));
  const startedAt = performance.now();
  const child = spawn(process.execPath, chorusArgs(entry), {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', CHORUS_HOST: '127.0.0.1', CHORUS_DATA_DIR: dataDir, CHORUS_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    const startMs = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`${entry} start: no node_started within ${READY_TIMEOUT_MS} ms`));
      }, READY_TIMEOUT_MS);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${entry} start: exited with ${String(code)} before node_started`));
      });
      createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
        if (!line.includes('"event":"node_started"')) return;
        clearTimeout(timer);
        resolve(performance.now() - startedAt);
      });
    });
    const pid = child.pid ?? 0;
    return { startMs, rssBytes: await rssBytes(pid), cpuMs: await cpuMs(pid) };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `starts` starts of each way, alternating; the compiled way is built first (outside the timing). */
export async function startupRow(starts: number, baseline: ServerProcess): Promise<StartupRow> {
  const baselineRssBytes = await rssBytes(baseline.pid);
  await ensureBuilt();
  const samples: Record<ChorusEntry, { startMs: number; rssBytes: number; cpuMs: number }[]> = {
    compiled: [],
    tsx: [],
  };
  for (let index = 0; index < starts; index += 1) {
    for (const entry of ['compiled', 'tsx'] as const) samples[entry].push(await startOnce(entry));
  }
  const run = (entry: ChorusEntry): StartupRun => ({
    entry,
    startsMs: samples[entry].map((sample) => sample.startMs),
    startMs: median(samples[entry].map((sample) => sample.startMs)),
    rssBytes: median(samples[entry].map((sample) => sample.rssBytes)),
    cpuMs: median(samples[entry].map((sample) => sample.cpuMs)),
  });
  return { compiled: run('compiled'), tsx: run('tsx'), baselineRssBytes };
}

const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** The row as printed by `npm run bench`. */
export function startupLines(row: StartupRow): string {
  const { compiled, tsx, baselineRssBytes } = row;
  const line = (name: string, run: StartupRun): string =>
    `  ${name}: start ${fmt(run.startMs, 0)} ms (${run.startsMs.map((ms) => fmt(ms, 0)).join(', ')})` +
    ` | CPU ${fmt(run.cpuMs, 0)} ms` +
    ` | RSS before the first client ${fmt(run.rssBytes / 1024 / 1024)} MB`;
  return (
    `\nStart-up, spawn to listening (median of ${compiled.startsMs.length}; embedded, empty data dir)` +
    `\n${line('compiled', compiled)}\n${line('tsx     ', tsx)}` +
    `\n  bare baseline (tsx loader): RSS before the first client ${fmt(baselineRssBytes / 1024 / 1024)} MB` +
    `\n  ratios: compiled/tsx start ${fmt(compiled.startMs / tsx.startMs, 2)}x CPU ${fmt(compiled.cpuMs / tsx.cpuMs, 2)}x` +
    ` RSS ${fmt(compiled.rssBytes / tsx.rssBytes, 2)}x | compiled/baseline RSS` +
    ` ${fmt(compiled.rssBytes / baselineRssBytes, 2)}x`
  );
}
