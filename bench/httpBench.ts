// The HTTP rows of `npm run bench`: message POSTs at 1/10/50 clients and history GETs (50 messages) at 10
// clients, Chorus beside the bare server, with the CPU each process spent. Each row runs in BENCH_HTTP_ROUNDS
// (default 4) rounds that alternate the two servers, pooled per side: a burst of load from a neighbour on this
// shared machine then falls on both sides instead of deciding one side's whole window.
// `npm run bench -- --http-only` runs this section alone (about a minute with BENCH_DURATION_MS=5000).
import type { BenchWorld } from './chorusSetup.js';
import { closedLoopGets, closedLoopPosts, pooled, type LoadResult } from './httpLoad.js';
import type { ServerProcess } from './processes.js';
import { cpuMs } from './stats.js';

/** A load's figures and the server process's CPU time (user + system, all threads) per request over it. */
export interface HttpRow extends LoadResult {
  readonly cpuMsPerRequest: number;
}

/** Rounds a row's load is split into (alternating the servers). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_HTTP_ROUNDS ?? 4));

/** One row measured on Chorus and on the bare server. */
export interface HttpPair {
  readonly kind: 'POST' | 'GET 50';
  readonly clients: number;
  readonly chorus: HttpRow;
  readonly baseline: HttpRow;
  /** Chorus's rate over the bare server's in each round: how far one window can stray from the pooled ratio. */
  readonly roundRatios: readonly number[];
}

type Targets = { token?: string; path: string }[];
type Load = (base: string, targets: Targets, clients: number, durationMs: number) => Promise<LoadResult>;

async function withCpu(server: ServerProcess, load: () => Promise<LoadResult>): Promise<HttpRow> {
  const before = await cpuMs(server.pid);
  const result = await load();
  const spent = (await cpuMs(server.pid)) - before;
  return { ...result, cpuMsPerRequest: spent / Math.max(1, result.requests) };
}

/** Rounds of one server as one row: CPU per request weighted by each round's requests. */
function pooledRow(rounds: readonly HttpRow[]): HttpRow {
  const load = pooled(rounds);
  const cpu = rounds.reduce((sum, round) => sum + round.cpuMsPerRequest * round.requests, 0);
  return { ...load, cpuMsPerRequest: cpu / Math.max(1, load.requests) };
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
    const roundMs = options.durationMs / ROUNDS;
    const bare: HttpRow[] = [];
    const own: HttpRow[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      bare.push(
        await withCpu(baseline, () =>
          load(baseline.baseUrl, [{ path: `/channels/1/messages${suffix}` }], clients, roundMs),
        ),
      );
      own.push(await withCpu(chorus, () => load(chorus.baseUrl, chorusTargets(suffix), clients, roundMs)));
    }
    const roundRatios = own.map((row, round) => row.perSecond / (bare[round]?.perSecond ?? Number.NaN));
    return { kind, clients, chorus: pooledRow(own), baseline: pooledRow(bare), roundRatios };
  };
  const pairs: HttpPair[] = [];
  for (const clients of options.postClients) pairs.push(await pair('POST', clients, closedLoopPosts, ''));
  for (const clients of options.getClients) pairs.push(await pair('GET 50', clients, closedLoopGets, '?limit=50'));
  return pairs;
}

/** The table of the rows, ratios to the bare server last. */
export function httpLines(pairs: readonly HttpPair[], durationMs: number): string {
  const lines = [
    `\nMessage POSTs and history GETs (closed loop, ${durationMs / 1000} s each side in ${ROUNDS} alternating rounds;` +
      ' CPU = server process ms per request; rounds = the rate ratio of each round)',
    'row | clients | chorus req/s | p50 ms | p99 ms | CPU ms | errors || baseline req/s | p50 ms | p99 ms | CPU ms || ratio req/s | p99 | CPU | rounds',
  ];
  for (const { kind, clients, chorus: c, baseline: b, roundRatios } of pairs) {
    lines.push(
      `${kind} | ${clients} | ${fmt(c.perSecond, 0)} | ${fmt(c.p50, 2)} | ${fmt(c.p99, 2)} | ${fmt(c.cpuMsPerRequest, 3)} | ${c.errors}` +
        ` || ${fmt(b.perSecond, 0)} | ${fmt(b.p50, 2)} | ${fmt(b.p99, 2)} | ${fmt(b.cpuMsPerRequest, 3)}` +
        ` || ${fmt(c.perSecond / b.perSecond, 2)}x | ${fmt(c.p99 / b.p99, 2)}x | ${fmt(c.cpuMsPerRequest / b.cpuMsPerRequest, 2)}x` +
        ` | ${roundRatios.map((ratio) => fmt(ratio, 2)).join(' ')}`,
    );
  }
  return lines.join('\n');
}

/**
 * The rows as results.json keeps them: `http` (POSTs) and `history` (GETs), each `{ chorus: [...], baseline: [...] }`
 * by clients, so `npm run bench:compare` finds each figure's bare twin.
 */
export function httpResults(pairs: readonly HttpPair[]): Record<'http' | 'history', Record<string, HttpRow[]>> {
  // Latencies stay out of the file: the percentiles stand for them.
  const kept = (row: HttpRow): HttpRow => ({ ...row, latencies: [] });
  const side = (kind: HttpPair['kind']) => ({
    chorus: pairs.filter((pair) => pair.kind === kind).map((pair) => kept(pair.chorus)),
    baseline: pairs.filter((pair) => pair.kind === kind).map((pair) => kept(pair.baseline)),
  });
  return { http: side('POST'), history: side('GET 50') };
}
