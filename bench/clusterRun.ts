// `npm run bench:cluster`: the cluster section alone (three node processes with Cassandra + Redis beside one
// embedded node of the same run), its figures merged into the results file (--out FILE, default
// bench/results.json) under `cluster`, so `npm run bench:compare` sets two runs side by side.
// BENCH_CPU_PROF=dir writes a V8 CPU profile of every node into dir (summarise: scripts/cpuProfileSummary.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { clusterBench } from './clusterBench.js';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5_000);
/**
 * Fan-out sessions (BENCH_CLUSTER_SESSIONS): 200 keeps the section within about 3 minutes on the shared machine
 * (1,000 took 6 when deliveries were missed); few when profiling, so the profiles hold the message path.
 */
const SESSIONS = Number(process.env.BENCH_CLUSTER_SESSIONS ?? (process.env.BENCH_CPU_PROF ? 20 : 200));
const outIndex = process.argv.indexOf('--out');
const RESULTS = outIndex > 0 ? resolve(process.argv[outIndex + 1] ?? '') : new URL('./results.json', import.meta.url);

const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');

const started = performance.now();
const figures = await clusterBench(DURATION_MS, SESSIONS);
const { local, remote } = figures.actorCalls;
const embedded = figures.cost.embedded.closed;
console.log('\nCluster mode (3 local nodes sharing these cores, Cassandra + Redis + gRPC)');
console.log(
  `actor call   | local p50 ${fmt(local.p50, 3)} ms p99 ${fmt(local.p99, 3)} ms | remote p50 ${fmt(remote.p50, 3)} ms p99 ${fmt(remote.p99, 3)} ms`,
);
console.log(
  `messages/s   | cluster ${fmt(figures.messagesPerSecond, 0)} (p99 ${fmt(figures.p99, 2)} ms) | embedded ${fmt(embedded.perSecond, 0)} (p99 ${fmt(embedded.p99, 2)} ms) | ratio ${fmt(figures.messagesPerSecond / embedded.perSecond, 2)}`,
);
console.log(
  `fan-out ${SESSIONS} | cluster p50 ${fmt(figures.fanout.p50, 2)} ms p99 ${fmt(figures.fanout.p99, 2)} ms (missing ${figures.fanout.missing})`,
);
console.log(`\n(cluster section: ${fmt((performance.now() - started) / 1000, 0)} s)`);
const results = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<string, unknown>) : {};
writeFileSync(RESULTS, `${JSON.stringify({ ...results, cluster: figures }, null, 2)}\n`);
