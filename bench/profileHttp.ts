// A CPU profile of a compiled Chorus node under one HTTP load: `npx tsx bench/profileHttp.ts post|get [DIR]`
// (BENCH_PORT, BENCH_DURATION_MS). The node runs with the inspector open (BENCH_PORT + 50) and the profile covers
// the measured load only, not the start-up; it is written to DIR/chorus.cpuprofile, which
// `npx tsx scripts/cpuProfileSummary.ts DIR/chorus.cpuprofile` summarises. The GET load first posts a few seconds
// of messages so every channel has a page of history.
import { mkdirSync } from 'node:fs';
import { createWorld } from './chorusSetup.js';
import { closedLoopGets, closedLoopPosts } from './httpLoad.js';
import { connectProfiler } from './inspectorProfile.js';
import { startChorus } from './processes.js';

const kind = process.argv[2] === 'get' ? 'get' : 'post';
const dir = process.argv[3] ?? `/tmp/chorus-http-prof/${kind}`;
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 10_000);
const port = Number(process.env.BENCH_PORT ?? 4400);
mkdirSync(dir, { recursive: true });
const chorus = await startChorus(port, {
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --inspect=127.0.0.1:${port + 50}`,
});
try {
  const world = await createWorld(chorus.baseUrl, 10);
  const targets = (suffix: string) =>
    world.channelIds.map((id) => ({ token: world.owner.token, path: `/api/v10/channels/${id}/messages${suffix}` }));
  if (kind === 'get') await closedLoopPosts(chorus.baseUrl, targets(''), 10, 2_000);
  const load = kind === 'get' ? closedLoopGets : closedLoopPosts;
  const profiler = await connectProfiler(port + 50);
  try {
    await profiler.start();
    const result = await load(chorus.baseUrl, targets(kind === 'get' ? '?limit=50' : ''), 10, durationMs);
    await profiler.stop(`${dir}/chorus.cpuprofile`);
    console.log(
      `${kind}: ${result.perSecond.toFixed(0)} req/s p50 ${result.p50.toFixed(2)} ms p99 ${result.p99.toFixed(2)} ms`,
    );
  } finally {
    profiler.close();
  }
} finally {
  await chorus.stop();
}
console.log(`profile in ${dir}`);
