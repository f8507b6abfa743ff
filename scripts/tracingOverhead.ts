// Cost of tracing per HTTP request: two embedded node PROCESSES (the tracer is one per process), one
// exporting spans over OTLP to a sink in this script and one with no endpoint (tracing off, SDK not
// loaded), the same POST /channels/:id/messages against each in alternating rounds (so machine noise
// hits both), compared by the CPU time each node process spent per request (from /proc). With a
// second argument, a third node runs from that directory (a checkout from before tracing, with
// node_modules linked in): the baseline the off node must match. Then the off path alone: what a
// mailbox letter pays for the check, in a loop of a million.
// `npx tsx scripts/tracingOverhead.ts [requests per node, default 8000; 0: the off path only] [baseline checkout]`.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Mailbox } from '../actors/runtime/Mailbox.js';
import type { loadConfig as LoadConfig } from '../src/config/loadConfig.js';
import type { startNode as StartNode } from '../src/main.js';
import { currentTrace } from '../src/tracing/traceScope.js';
import { overheadNodeEnv } from './overheadNodeEnv.js';

const ROUNDS = 8;
const IN_FLIGHT = 16;

if (process.argv[2] === '--serve') {
  // One node in this process: tracing on when an endpoint is given, off otherwise.
  const dir = mkdtempSync(join(tmpdir(), 'chorus-tracing-cost-'));
  const endpoint = process.argv[3] ?? '';
  const root = process.argv[4] ?? join(fileURLToPath(import.meta.url), '../..');
  const { startNode } = (await import(join(root, 'src/main.ts'))) as { startNode: typeof StartNode };
  const { loadConfig } = (await import(join(root, 'src/config/loadConfig.ts'))) as { loadConfig: typeof LoadConfig };
  const node = await startNode(
    loadConfig(
      {},
      overheadNodeEnv(dir, {
        CHORUS_METRICS: 'off',
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '200',
      }),
    ),
  );
  console.log(JSON.stringify({ url: node.url }));
  process.stdin.resume();
  process.stdin.on('end', () => {
    void node.close().then(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  });
} else {
  const requests = Number(process.argv[2] ?? 8_000);
  if (requests > 0) await compare(requests, process.argv[3]); // 0: the off path alone
  await offPath();
}

interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  readonly token: string;
  readonly channelId: string;
}

async function call<T>(url: string, method: string, path: string, token: string, body?: unknown): Promise<T> {
  const response = await fetch(`${url}/api/v10${path}`, {
    method,
    headers: { authorization: token, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function serve(endpoint: string, root?: string): Promise<Served> {
  const script = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, ['--import', 'tsx', script, '--serve', endpoint, ...(root ? [root] : [])], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const { url } = JSON.parse(line) as { url: string };
  const account = { username: 'bench', password: 'correct horse battery', email: 'b@example.test', consent: true };
  const { token } = await call<{ token: string }>(url, 'POST', '/auth/register', '', account);
  const guild = await call<{ id: string }>(url, 'POST', '/guilds', token, { name: 'bench' });
  const channels = await call<{ id: string; type: number }[]>(url, 'GET', `/guilds/${guild.id}/channels`, token);
  const channelId = channels.find((channel) => channel.type === 0)?.id ?? '';
  return { child, url, token, channelId };
}

/** CPU time (user + system, ms) the process has used, from /proc (10 ms ticks). */
function cpuMsOf(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `count` messages posted with IN_FLIGHT at a time; returns the node's CPU ms and the elapsed ms. */
async function round(target: Served, count: number): Promise<{ cpuMs: number; wallMs: number }> {
  let next = 0;
  const cpuBefore = cpuMsOf(target.child);
  const startMs = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) {
        next += 1;
        await call(target.url, 'POST', `/channels/${target.channelId}/messages`, target.token, { content: 'x' });
      }
    }),
  );
  return { cpuMs: cpuMsOf(target.child) - cpuBefore, wallMs: performance.now() - startMs };
}

async function compare(requests: number, baselineRoot: string | undefined): Promise<void> {
  let spansBytes = 0;
  const sink = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (spansBytes += chunk.length));
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  sink.listen(0, '127.0.0.1');
  await once(sink, 'listening');
  const targets: Record<string, Served> = {
    on: await serve(`http://127.0.0.1:${(sink.address() as AddressInfo).port}`),
    off: await serve(''),
    ...(baselineRoot ? { baseline: await serve('', baselineRoot) } : {}),
  };
  const names = Object.keys(targets);
  for (const name of names) await round(targets[name]!, 500); // warm-up
  const totals = Object.fromEntries(names.map((name) => [name, { cpuMs: 0, wallMs: 0 }]));
  const per = Math.floor(requests / ROUNDS);
  for (let i = 0; i < ROUNDS; i += 1) {
    // Each round in another order, so drift of the machine's load hits every node alike.
    const order = names.map((_, k) => names[(k + i) % names.length]!);
    for (const name of order) {
      const { cpuMs, wallMs } = await round(targets[name]!, per);
      totals[name]!.cpuMs += cpuMs;
      totals[name]!.wallMs += wallMs;
    }
  }
  const done = per * ROUNDS;
  const us = (ms: number): number => Number(((ms * 1000) / done).toFixed(1));
  const report: Record<string, number> = { requestsPerNode: done, inFlight: IN_FLIGHT };
  for (const name of names) {
    report[`cpuUsPerRequest_${name}`] = us(totals[name]!.cpuMs);
    report[`wallUsPerRequest_${name}`] = us(totals[name]!.wallMs);
  }
  report.exportedKiB = Math.round(spansBytes / 1024);
  console.log(JSON.stringify(report));
  for (const { child } of Object.values(targets)) {
    child.stdin?.end();
    await once(child, 'exit');
  }
  sink.close();
}

/** Nanoseconds per call of `work`, after a warm-up. */
async function nsPerCall(work: () => unknown, calls = 1_000_000): Promise<number> {
  for (let i = 0; i < calls / 10; i += 1) await work();
  const startMs = performance.now();
  for (let i = 0; i < calls; i += 1) await work();
  return ((performance.now() - startMs) * 1e6) / calls;
}

/** Nanoseconds per synchronous call of `work`, after a warm-up (the result is kept so the loop is not dropped). */
function nsPerSyncCall(work: () => unknown, calls = 10_000_000): number {
  let kept = 0;
  for (let i = 0; i < calls / 10; i += 1) if (work() !== undefined) kept += 1;
  const startMs = performance.now();
  for (let i = 0; i < calls; i += 1) if (work() !== undefined) kept += 1;
  const ns = ((performance.now() - startMs) * 1e6) / calls;
  return kept < 0 ? 0 : ns;
}

/** What tracing costs while off, where it sits on every message: the check and a mailbox round trip. */
async function offPath(): Promise<void> {
  const mailbox = new Mailbox<number, number>(
    (message) => Promise.resolve(message),
    1_000,
    () => undefined,
  );
  const empty = nsPerSyncCall(() => undefined);
  console.log(
    JSON.stringify({
      currentTraceOffNs: Number((nsPerSyncCall(currentTrace) - empty).toFixed(2)),
      mailboxAskOffNs: Math.round(await nsPerCall(() => mailbox.ask(1))),
    }),
  );
}
