// Issue 15 §3 and §4: the memory of an idle connected session and a connect storm, on a Chorus node of its own
// beside the bare ws baseline (same run). `npm run bench:sessions` runs these rows alone.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { addMembers, createWorld, type BenchWorld } from './chorusSetup.js';
import { connectProfiler } from './inspectorProfile.js';
import { startChorus, type ServerProcess } from './processes.js';
import { cpuMs, rssBytes, summarize } from './stats.js';

/** What the sessions rows need. */
export interface SessionsSetup {
  /** Sessions the storm opens (the 10,000). */
  readonly sessions: number;
  /** Distinct users they identify as (a user may hold several sessions, as with tabs and devices). */
  readonly users: number;
  /** Sockets that heartbeat through the storm and time their ACKs. */
  readonly probes: number;
  readonly port: number;
  readonly baseline: ServerProcess;
  /**
   * A data dir to reuse (BENCH_STORM_DATA): registering 10,000 users takes minutes. Missing or holding fewer
   * users, the world is made in it and kept (with world.json); otherwise each run storms a copy of it.
   */
  readonly preparedDir?: string;
}

/** The connect storm and the RSS per idle session it left behind, beside the bare server's. */
export interface SessionsRow {
  readonly sessions: number;
  readonly users: number;
  /** From the first connect to the last READY. */
  readonly stormMs: number;
  /** Sessions that got no READY (closed, refused or timed out). */
  readonly failed: number;
  /** Heartbeat → ACK of the probes while the storm ran. */
  readonly heartbeatAck: { readonly p50: number; readonly p99: number; readonly max: number; readonly n: number };
  readonly rssPerSessionKB: number;
  readonly baselineRssPerSessionKB: number;
  /** The bare server's time to open as many sockets (it answers the first frame with a READY at once). */
  readonly baselineStormMs: number;
  /** Server CPU (user + system) per session brought to READY: a figure the shared machine's noise moves less. */
  readonly cpuMsPerSession: number;
  readonly baselineCpuMsPerSession: number;
}

const HELLO_INTERVAL = /"heartbeat_interval":(\d+)/;
/** Sockets connecting at once: a storm of clients, as after an outage, not a trickle. */
const CONNECTING_AT_ONCE = 500;
/** How often the probes heartbeat during the storm. */
const PROBE_EVERY_MS = 100;
/** Time for the server to settle (GC, pending writes) before RSS is read. */
const SETTLE_MS = 3_000;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens a socket, identifies with `token` (none: the bare server, which answers any frame with READY),
 * and resolves with it on READY; rejects when it closes first. Heartbeats at the interval Hello gave.
 * Frames after READY are not parsed: ten thousand sockets share the cores with the server.
 */
function openReady(url: string, token: string | undefined): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    let ready = false;
    socket.on('error', () => undefined);
    socket.once('close', (code) => {
      if (!ready) reject(new Error(`closed ${code} before READY`));
    });
    socket.on('message', (data: Buffer) => {
      if (ready) return;
      const text = data.toString();
      const interval = HELLO_INTERVAL.exec(text)?.[1];
      if (interval !== undefined) {
        const heartbeat = setInterval(() => {
          if (socket.readyState === WebSocket.OPEN) socket.send('{"op":1,"d":null}');
        }, Number(interval)).unref();
        socket.once('close', () => {
          clearInterval(heartbeat);
        });
        const d = { token, intents: 1 | (1 << 9), properties: { os: 'linux', browser: 'bench', device: 'bench' } };
        socket.send(JSON.stringify({ op: 2, d }));
      } else if (text.includes('"t":"READY"')) {
        ready = true;
        resolve(socket);
      }
    });
  });
}

/** Opens `count` sockets, `parallel` connecting at a time; returns the open ones, the time taken and the failures. */
async function storm(
  count: number,
  open: (index: number) => Promise<WebSocket>,
): Promise<{ sockets: WebSocket[]; ms: number; failed: number }> {
  const sockets: WebSocket[] = [];
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(CONNECTING_AT_ONCE, count) }, async () => {
      while (next < count) {
        const index = next;
        next += 1;
        try {
          sockets.push(await open(index));
        } catch {
          failed += 1;
        }
      }
    }),
  );
  return { sockets, ms: performance.now() - t0, failed };
}

/** Sockets that send a heartbeat every PROBE_EVERY_MS and time each ACK (op 11) until `stop`. */
async function heartbeatProbes(url: string, token: string, count: number) {
  const sockets = await Promise.all(Array.from({ length: count }, () => openReady(url, token)));
  const samples: number[] = [];
  const timers = sockets.map((socket, index) => {
    let sentAt: number | undefined;
    socket.on('message', (data: Buffer) => {
      if (sentAt !== undefined && data.length < 40 && data.toString().includes('"op":11')) {
        samples.push(performance.now() - sentAt);
        sentAt = undefined;
      }
    });
    const beat = (): void => {
      if (sentAt !== undefined) return; // still waiting: counted once it comes
      sentAt = performance.now();
      socket.send('{"op":1,"d":null}');
    };
    // Spread over the period, so the probes do not heartbeat all in the same millisecond.
    const timer = setInterval(beat, PROBE_EVERY_MS);
    setTimeout(beat, (index * PROBE_EVERY_MS) / count).unref();
    return timer;
  });
  return {
    samples,
    stop: () => {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.terminate();
    },
  };
}

interface PreparedWorld {
  readonly world: BenchWorld;
  readonly users: { token: string; id: string }[];
}

/**
 * The node the storm runs on and its users: a fresh world, or a copy of the prepared dir's world when it has
 * enough users (the copy, so every run starts from the same state).
 */
async function worldNode(setup: SessionsSetup): Promise<{ chorus: ServerProcess; prepared: PreparedWorld }> {
  const dir = setup.preparedDir;
  const inspect =
    STORM_PROFILE === undefined
      ? {}
      : { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --inspect=127.0.0.1:${setup.port + 50}` };
  const file = dir === undefined ? undefined : join(dir, 'world.json');
  if (dir !== undefined && file !== undefined && existsSync(file)) {
    const prepared = JSON.parse(readFileSync(file, 'utf8')) as PreparedWorld;
    if (prepared.users.length >= setup.users) {
      const copy = mkdtempSync(join(tmpdir(), 'chorus-storm-'));
      cpSync(dir, copy, { recursive: true });
      const chorus = await startChorus(setup.port, { CHORUS_DATA_DIR: copy, ...inspect });
      const stop = async (): Promise<void> => {
        await chorus.stop();
        rmSync(copy, { recursive: true });
      };
      return { chorus: { pid: chorus.pid, baseUrl: chorus.baseUrl, stop }, prepared };
    }
    rmSync(dir, { recursive: true });
  }
  const chorus = await startChorus(setup.port, dir === undefined ? inspect : { CHORUS_DATA_DIR: dir, ...inspect });
  // The users share one guild, large (above 250 members) from a few hundred on, as a community server would be.
  const world = await createWorld(chorus.baseUrl, 1);
  const users = [world.owner, ...(await addMembers(chorus.baseUrl, world, setup.users - 1))];
  if (file !== undefined) writeFileSync(file, JSON.stringify({ world, users }));
  return { chorus, prepared: { world, users } };
}

/** Runs the connect storm against a Chorus node and the baseline, and reads RSS once each is idle. */
export async function sessionsRow(setup: SessionsSetup): Promise<SessionsRow> {
  const { chorus, prepared } = await worldNode(setup);
  try {
    const world = prepared.world;
    const users = prepared.users.slice(0, setup.users);
    const url = `${chorus.baseUrl.replace(/^http/, 'ws')}/?v=10&encoding=json`;
    const probes = await heartbeatProbes(url, world.owner.token, setup.probes);
    await pause(SETTLE_MS);
    const rssBefore = await rssBytes(chorus.pid);
    const cpuBefore = await cpuMs(chorus.pid);
    probes.samples.length = 0;
    const profiler = STORM_PROFILE === undefined ? undefined : await connectProfiler(setup.port + 50);
    await profiler?.start();
    const chorusStorm = await storm(setup.sessions, (index) =>
      openReady(url, (users[index % users.length] ?? world.owner).token),
    );
    if (profiler && STORM_PROFILE !== undefined) {
      await profiler.stop(STORM_PROFILE);
      profiler.close();
    }
    const cpuStorm = (await cpuMs(chorus.pid)) - cpuBefore;
    const heartbeatAck = summarize([...probes.samples]);
    probes.stop();
    await pause(SETTLE_MS);
    const rssAfter = await rssBytes(chorus.pid);
    for (const socket of chorusStorm.sockets) socket.terminate();

    const baseUrl = setup.baseline.baseUrl.replace(/^http/, 'ws');
    const baseBefore = await rssBytes(setup.baseline.pid);
    const baseCpuBefore = await cpuMs(setup.baseline.pid);
    const baseStorm = await storm(setup.sessions, () => openReady(baseUrl, 'bare'));
    const baseCpu = (await cpuMs(setup.baseline.pid)) - baseCpuBefore;
    await pause(SETTLE_MS);
    const baseAfter = await rssBytes(setup.baseline.pid);
    for (const socket of baseStorm.sockets) socket.terminate();
    return {
      sessions: setup.sessions,
      users: users.length,
      stormMs: chorusStorm.ms,
      failed: chorusStorm.failed,
      heartbeatAck,
      rssPerSessionKB: (rssAfter - rssBefore) / chorusStorm.sockets.length / 1024,
      baselineRssPerSessionKB: (baseAfter - baseBefore) / baseStorm.sockets.length / 1024,
      baselineStormMs: baseStorm.ms,
      cpuMsPerSession: cpuStorm / setup.sessions,
      baselineCpuMsPerSession: baseCpu / setup.sessions,
    };
  } finally {
    await chorus.stop();
  }
}

/** BENCH_STORM_PROFILE=FILE.cpuprofile: a CPU profile of Chorus over its storm (inspector on the node's port + 50). */
const STORM_PROFILE = process.env.BENCH_STORM_PROFILE;

const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** The rows as the bench prints them. */
export function sessionsLines(row: SessionsRow): string {
  return (
    `\nConnect storm: ${row.sessions} sessions of ${row.users} users, ${CONNECTING_AT_ONCE} connecting at a time` +
    `\n  first connect → last READY: chorus ${fmt(row.stormMs / 1000, 2)} s (failed ${row.failed})` +
    ` | baseline ${fmt(row.baselineStormMs / 1000, 2)} s | ratio ${fmt(row.stormMs / row.baselineStormMs, 1)}x` +
    `\n  server CPU per session: chorus ${fmt(row.cpuMsPerSession, 2)} ms | baseline ${fmt(row.baselineCpuMsPerSession, 2)} ms` +
    ` | ratio ${fmt(row.cpuMsPerSession / row.baselineCpuMsPerSession, 1)}x` +
    `\n  heartbeat ACK during the storm (${row.heartbeatAck.n} beats): p50 ${fmt(row.heartbeatAck.p50, 1)} ms` +
    ` p99 ${fmt(row.heartbeatAck.p99, 1)} ms max ${fmt(row.heartbeatAck.max, 1)} ms` +
    `\n  RSS per idle session: chorus ${fmt(row.rssPerSessionKB)} KB | baseline ${fmt(row.baselineRssPerSessionKB)} KB` +
    ` | ratio ${fmt(row.rssPerSessionKB / row.baselineRssPerSessionKB, 1)}x`
  );
}

/**
 * The rows with the command line's settings: `--sessions N` (default the 10,000) sessions of
 * BENCH_STORM_USERS users (default one user each), on BENCH_PORT + 5, in a copy of BENCH_STORM_DATA's world when
 * set; prints them.
 */
export async function sessionsSection(baseline: ServerProcess): Promise<SessionsRow> {
  const flag = process.argv.indexOf('--sessions');
  const sessions = flag > 0 ? Number(process.argv[flag + 1]) : 10_000;
  const row = await sessionsRow({
    sessions,
    users: Number(process.env.BENCH_STORM_USERS ?? sessions),
    probes: 100,
    port: Number(process.env.BENCH_PORT ?? 3901) + 5,
    baseline,
    ...(process.env.BENCH_STORM_DATA ? { preparedDir: resolve(process.env.BENCH_STORM_DATA) } : {}),
  });
  console.log(sessionsLines(row));
  return row;
}
