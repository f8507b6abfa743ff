// Cost per message (issue 14 §1): CPU-seconds per 1,000 messages summed over every process a message passes
// through, in embedded and in cluster mode at the same offered load, beside throughput and p99.
import { cassandraPids, redisPids, startCpuWindow, type GroupCpu, type ProcessGroups } from './cpuAccounting.js';
import { closedLoopPosts } from './httpLoad.js';
import { startCountWindow, type Counts } from './nodeMetrics.js';
import { rateLimitedPosts } from './rateLoad.js';

/** Offered load of the fixed-rate row: one both modes sustain on the shared 2-core machine (BENCH_COST_RATE). */
export const COST_RATE = Number(process.env.BENCH_COST_RATE ?? 50);
/** Length of each measured window (BENCH_COST_MS). */
export const COST_WINDOW_MS = Number(process.env.BENCH_COST_MS ?? 10_000);
/** Closed-loop clients of the max-throughput row. */
const CLOSED_CLIENTS = 10;

/** One measured window of one mode. */
export interface CostRow {
  readonly load: 'rate' | 'closed';
  readonly messages: number;
  readonly perSecond: number;
  readonly p99: number;
  readonly errors: number;
  /** CPU-seconds each process group used over the window (redis and cassandra: in embedded mode, neighbours). */
  readonly cpuSeconds: GroupCpu;
  /** CPU-seconds per 1,000 messages: the Chorus processes alone, and every process the mode involves. */
  readonly chorusCpuPer1000: number;
  readonly allCpuPer1000: number;
  /** Per message, over every node: remote calls, storage operations, fence checks (GET /metrics). */
  readonly perMessage: Counts;
  /** The window on the monotonic clock in µs, V8's profile clock: `cpuProfileSummary.ts --window from:to`. */
  readonly window: { readonly fromUs: number; readonly toUs: number };
}

const monotonicMicros = (): number => Number(process.hrtime.bigint() / 1000n);

/** What a mode's measurement needs: its nodes and which processes count as involved besides them. */
export interface CostTarget {
  readonly nodes: readonly { readonly url: string; readonly pid: number }[];
  /** Redis and Cassandra count in cluster mode; in embedded mode they are measured only as background. */
  readonly usesServices: boolean;
  /** Where each closed-loop client or fixed-rate POST goes (spread over the nodes). */
  readonly targets: readonly { token: string; path: string; base: string }[];
}

async function measureWindow(
  target: CostTarget,
  groups: ProcessGroups,
  load: CostRow['load'],
  run: () => Promise<{ messages: number; perSecond: number; p99: number; errors: number }>,
): Promise<CostRow> {
  const counted = await startCountWindow(target.nodes.map((node) => node.url));
  const stopCpu = startCpuWindow(groups);
  const fromUs = monotonicMicros();
  const result = await run();
  const toUs = monotonicMicros();
  const cpuSeconds = stopCpu();
  const counts = await counted();
  const per1000 = (seconds: number): number => (seconds / Math.max(1, result.messages)) * 1000;
  const services = target.usesServices ? (cpuSeconds.redis ?? 0) + (cpuSeconds.cassandra ?? 0) : 0;
  const chorus = cpuSeconds.chorus ?? 0;
  const perMessage = Object.fromEntries(
    Object.entries(counts).map(([name, value]) => [name, value / Math.max(1, result.messages)]),
  );
  return {
    load,
    ...result,
    cpuSeconds,
    chorusCpuPer1000: per1000(chorus),
    allCpuPer1000: per1000(chorus + services),
    perMessage,
    window: { fromUs, toUs },
  };
}

/** Idle CPU, in cores (CPU-seconds a second), of each group: what the nodes cost with no message at all. */
export type IdleRow = GroupCpu;

/** The rows of one mode. */
export interface CostRows {
  readonly idle: IdleRow;
  readonly rate: CostRow;
  readonly closed: CostRow;
}

/** Idle window: heartbeats, lease renewals, timers. Its share of a loaded row is idle × seconds / messages. */
const IDLE_MS = 3_000;

/** The idle, fixed-rate and closed-loop max-throughput rows of one mode (the caller warmed it up). */
export async function measureCost(target: CostTarget): Promise<CostRows> {
  const groups: ProcessGroups = {
    chorus: target.nodes.map((node) => node.pid),
    redis: await redisPids(),
    cassandra: cassandraPids(),
  };
  const stopIdle = startCpuWindow(groups);
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const idle = Object.fromEntries(Object.entries(stopIdle()).map(([name, cpu]) => [name, cpu / (IDLE_MS / 1000)]));
  const rate = await measureWindow(target, groups, 'rate', async () => {
    const r = await rateLimitedPosts(target.targets, COST_RATE, COST_WINDOW_MS);
    return { messages: r.completed, perSecond: r.perSecond, p99: r.p99, errors: r.errors + r.shed };
  });
  const closed = await measureWindow(target, groups, 'closed', async () => {
    const first = target.targets[0]?.base ?? '';
    const r = await closedLoopPosts(first, target.targets, CLOSED_CLIENTS, COST_WINDOW_MS / 2);
    const messages = Math.round(r.perSecond * (COST_WINDOW_MS / 2000));
    return { messages, perSecond: r.perSecond, p99: r.p99, errors: r.errors };
  });
  return { idle, rate, closed };
}

const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** The cost table: each row of cluster beside embedded, with the cluster/embedded ratios. */
export function costLines(embedded: CostRows, cluster: CostRows): string {
  const lines = [
    `\nCost per message (CPU-seconds per 1,000 messages; fixed rate ${COST_RATE} msg/s, then ${CLOSED_CLIENTS} closed-loop clients)`,
    'row    | mode     | msg/s | p99 ms | errors | chorus CPU/1k | all CPU/1k | redis s | cassandra s',
  ];
  for (const load of ['rate', 'closed'] as const) {
    const e = embedded[load];
    const c = cluster[load];
    for (const [mode, row] of [
      ['embedded', e],
      ['cluster', c],
    ] as const) {
      lines.push(
        `${load.padEnd(6)} | ${mode.padEnd(8)} | ${fmt(row.perSecond, 0)} | ${fmt(row.p99, 2)} | ${row.errors} | ` +
          `${fmt(row.chorusCpuPer1000, 2)} | ${fmt(row.allCpuPer1000, 2)} | ${fmt(row.cpuSeconds.redis ?? 0, 2)} | ${fmt(row.cpuSeconds.cassandra ?? 0, 2)}`,
      );
    }
    lines.push(
      `${load.padEnd(6)} | ratio    | ${fmt(c.perSecond / e.perSecond, 2)}x | ${fmt(c.p99 / e.p99, 2)}x |  | ` +
        `${fmt(c.chorusCpuPer1000 / e.chorusCpuPer1000, 2)}x (target <= 2) | ${fmt(c.allCpuPer1000 / e.allCpuPer1000, 2)}x | |`,
    );
  }
  lines.push('(embedded redis/cassandra seconds: neighbours on the shared machine, not counted in its "all")');
  const idle = (rows: CostRows): string =>
    `chorus ${fmt(rows.idle.chorus ?? 0, 3)}, redis ${fmt(rows.idle.redis ?? 0, 3)}, cassandra ${fmt(rows.idle.cassandra ?? 0, 3)}` +
    ` (chorus idle per 1k at ${COST_RATE} msg/s: ${fmt(((rows.idle.chorus ?? 0) / COST_RATE) * 1000, 2)} s)`;
  lines.push(`Idle CPU in cores: embedded ${idle(embedded)}; cluster ${idle(cluster)}`);
  lines.push('Per message in cluster (fixed-rate row, all nodes): ' + countsLine(cluster.rate.perMessage));
  lines.push('Per message in cluster (closed-loop row): ' + countsLine(cluster.closed.perMessage));
  lines.push(
    'Per message in embedded (fixed-rate row; redis: neighbours only): ' + countsLine(embedded.rate.perMessage),
  );
  if (process.env.BENCH_CPU_PROF) {
    const windows = (rows: CostRows): string =>
      [rows.rate, rows.closed].map((row) => `${row.window.fromUs}:${row.window.toUs}`).join(',');
    lines.push(
      `Profiles of the measured windows: npx tsx scripts/cpuProfileSummary.ts --window ${windows(embedded)} <embedded node's file>;` +
        ` --window ${windows(cluster)} <the cluster nodes' files>`,
    );
  }
  return lines.join('\n');
}

function countsLine(counts: Counts): string {
  const entries = Object.entries(counts).filter(([, value]) => value >= 0.005);
  entries.sort(([a], [b]) => a.localeCompare(b));
  return entries.map(([name, value]) => `${name} ${fmt(value, 2)}`).join(', ') || 'none';
}
