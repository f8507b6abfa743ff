// The HTTP rows of `npm run bench`: message POSTs at 1/10/50 clients and history GETs (50 messages) at 10
// clients, Chorus beside the bare server, each pair measured back to back with the CPU each process spent.
// `npm run bench -- --http-only` runs this section alone (about a minute with BENCH_DURATION_MS=5000).
import type { BenchWorld } from './chorusSetup.js';
import { closedLoopGets, closedLoopPosts, type LoadResult } from './httpLoad.js';
import type { ServerProcess } from './processes.js';
import { cpuMs } from './stats.js';

/** A load's figures and the server process's CPU time (user + system, all threads) per request over it. */
export interface HttpRow extends LoadResult {
  readonly cpuMsPerRequest: number;
}

/** One row measured on Chorus and on the bare server. */
export interface HttpPair {
  readonly kind: 'POST' | 'GET 50';
  readonly clients: number;
  readonly chorus: HttpRow;
  readonly baseline: HttpRow;
}

type Targets = { token?: string; path: string }[];
type Load = (base: string, targets: Targets, clients: number, durationMs: number) => Promise<LoadResult>;

async function withCpu(server: ServerProcess, load: () => Promise<LoadResult>): Promise<HttpRow> {
  const before = await cpuMs(server.pid);
  const result = await load();
  const spent = (await cpuMs(server.pid)) - before;
  return { ...result, cpuMsPerRequest: spent / Math.max(1, result.requests) };
}

const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/**
 * Measures the rows: for each, the bare server then Chorus, so both see the same moment of a shared machine.
 * Chorus's clients post to (and read) one channel each; the POST rows come first and fill the histories.
 */
export async function httpSection(
  chorus: ServerProcess,
  baseline: ServerProcess,
  world: BenchWorld,
  options: { postClients: readonly number[]; getClients: readonly number[]; durationMs: number },
): Promise<HttpPair[]> {
  const chorusTargets = (suffix: string): Targets =>
    world.channelIds.map((id) => ({ token: world.owner.token, path: `/api/v10/channels/${id}/messages${suffix}` }));
  const pair = async (kind: HttpPair['kind'], clients: number, load: Load, suffix: string): Promise<HttpPair> => {
    const { durationMs } = options;
    const bare = await withCpu(baseline, () =>
      load(baseline.baseUrl, [{ path: `/channels/1/messages${suffix}` }], clients, durationMs),
    );
    const own = await withCpu(chorus, () => load(chorus.baseUrl, chorusTargets(suffix), clients, durationMs));
    return { kind, clients, chorus: own, baseline: bare };
  };
  const pairs: HttpPair[] = [];
  for (const clients of options.postClients) pairs.push(await pair('POST', clients, closedLoopPosts, ''));
  for (const clients of options.getClients) pairs.push(await pair('GET 50', clients, closedLoopGets, '?limit=50'));
  return pairs;
}

/** The table of the rows, ratios to the bare server last. */
export function httpLines(pairs: readonly HttpPair[], durationMs: number): string {
  const lines = [
    `\nMessage POSTs and history GETs (closed loop, ${durationMs / 1000} s each; CPU = server process ms per request)`,
    'row | clients | chorus req/s | p50 ms | p99 ms | CPU ms | errors || baseline req/s | p50 ms | p99 ms | CPU ms || ratio req/s | p99 | CPU',
  ];
  for (const { kind, clients, chorus: c, baseline: b } of pairs) {
    lines.push(
      `${kind} | ${clients} | ${fmt(c.perSecond, 0)} | ${fmt(c.p50, 2)} | ${fmt(c.p99, 2)} | ${fmt(c.cpuMsPerRequest, 3)} | ${c.errors}` +
        ` || ${fmt(b.perSecond, 0)} | ${fmt(b.p50, 2)} | ${fmt(b.p99, 2)} | ${fmt(b.cpuMsPerRequest, 3)}` +
        ` || ${fmt(c.perSecond / b.perSecond, 2)}x | ${fmt(c.p99 / b.p99, 2)}x | ${fmt(c.cpuMsPerRequest / b.cpuMsPerRequest, 2)}x`,
    );
  }
  return lines.join('\n');
}

/**
 * The rows as results.json keeps them: `http` (POSTs) and `history` (GETs), each `{ chorus: [...], baseline: [...] }`
 * by clients, so `npm run bench:compare` finds each figure's bare twin.
 */
export function httpResults(pairs: readonly HttpPair[]): Record<'http' | 'history', Record<string, HttpRow[]>> {
  const side = (kind: HttpPair['kind']) => ({
    chorus: pairs.filter((pair) => pair.kind === kind).map((pair) => pair.chorus),
    baseline: pairs.filter((pair) => pair.kind === kind).map((pair) => pair.baseline),
  });
  return { http: side('POST'), history: side('GET 50') };
}
