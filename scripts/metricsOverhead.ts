// Added cost of metrics per HTTP request: one embedded node with CHORUS_METRICS=on and one with off,
// the same requests against each in alternating rounds (so machine noise hits both), and the time
// per request compared; then the recording alone, in a loop of a million (the HTTP middleware and a
// storage call through the metered proxy), which machine noise blurs less.
// `npx tsx scripts/metricsOverhead.ts [requests per node, default 20000]`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/loadConfig.js';
import { httpMetrics } from '../src/http/httpMetrics.js';
import { startNode, type RunningNode } from '../src/main.js';
import { PromMetrics } from '../src/metrics/PromMetrics.js';
import { meteredStores, storageLatency } from '../src/store/meteredStores.js';
import { overheadNodeEnv } from './overheadNodeEnv.js';

const REQUESTS = Number(process.argv[2] ?? 20_000);
const ROUNDS = 8;
const IN_FLIGHT = 16;

async function start(metrics: 'on' | 'off'): Promise<{ node: RunningNode; token: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'chorus-metrics-cost-'));
  const node = await startNode(loadConfig({}, overheadNodeEnv(dir, { CHORUS_METRICS: metrics })));
  const body = JSON.stringify({
    username: 'bench',
    password: 'correct horse battery',
    email: 'b@example.test',
    consent: true,
  });
  const response = await fetch(`${node.url}/api/v10/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const { token } = (await response.json()) as { token: string };
  return { node, token, dir };
}

/** `count` GET /users/@me with IN_FLIGHT at a time; returns the elapsed milliseconds. */
async function round(url: string, token: string, count: number): Promise<number> {
  let next = 0;
  const startMs = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) {
        next += 1;
        const response = await fetch(`${url}/api/v10/users/@me`, { headers: { authorization: token } });
        if (response.status !== 200) throw new Error(`status ${response.status}`);
        await response.arrayBuffer();
      }
    }),
  );
  return performance.now() - startMs;
}

const on = await start('on');
const off = await start('off');
await round(on.node.url, on.token, 1_000); // warm-up of both
await round(off.node.url, off.token, 1_000);
const totals = { on: 0, off: 0 };
const per = Math.floor(REQUESTS / ROUNDS);
for (let i = 0; i < ROUNDS; i += 1) {
  const order = i % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
  for (const which of order) {
    const target = which === 'on' ? on : off;
    totals[which] += await round(target.node.url, target.token, per);
  }
}
const usOn = (totals.on * 1000) / (per * ROUNDS);
const usOff = (totals.off * 1000) / (per * ROUNDS);
console.log(
  JSON.stringify({
    requestsPerNode: per * ROUNDS,
    inFlight: IN_FLIGHT,
    usPerRequestOn: Number(usOn.toFixed(1)),
    usPerRequestOff: Number(usOff.toFixed(1)),
    addedUsPerRequest: Number((usOn - usOff).toFixed(1)),
    addedPercent: Number(((100 * (usOn - usOff)) / usOff).toFixed(1)),
    requestsPerSecondOn: Math.round((per * ROUNDS * 1000) / totals.on),
    requestsPerSecondOff: Math.round((per * ROUNDS * 1000) / totals.off),
  }),
);
const scrape = await fetch(`${on.node.url}/metrics`);
console.log(`scrape: ${(await scrape.text()).length} bytes`);
for (const { node, dir } of [on, off]) {
  await node.close();
  rmSync(dir, { recursive: true, force: true });
}

/** Nanoseconds per call of `work`, after a warm-up. */
async function nsPerCall(work: () => Promise<unknown>, calls = 1_000_000): Promise<number> {
  for (let i = 0; i < calls / 10; i += 1) await work();
  const startMs = performance.now();
  for (let i = 0; i < calls; i += 1) await work();
  return ((performance.now() - startMs) * 1e6) / calls;
}

const metrics = new PromMetrics();
const middleware = httpMetrics(metrics);
const ctx = { method: 'GET', status: 200, _matchedRoute: '/api/users/@me' } as unknown as Parameters<
  typeof middleware
>[0];
const next = (): Promise<void> => Promise.resolve();
const passThrough = async (_ctx: unknown, go: () => Promise<void>): Promise<void> => {
  await go();
};
class Port {
  get(id: string): Promise<string> {
    return Promise.resolve(id);
  }
}
const raw = { users: new Port() };
const metered = meteredStores({ users: new Port() }, storageLatency(metrics, 'sqlite'));
const bare = await nsPerCall(async () => {
  await passThrough(ctx, next);
});
const measured = await nsPerCall(async () => {
  await middleware(ctx, next);
});
const plainCall = await nsPerCall(() => raw.users.get('1'));
const meteredCall = await nsPerCall(() => metered.users.get('1'));
console.log(
  JSON.stringify({
    httpMiddlewareAddedNs: Math.round(measured - bare),
    storageCallAddedNs: Math.round(meteredCall - plainCall),
  }),
);
