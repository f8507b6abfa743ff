// A CPU profile of a compiled Chorus node under one HTTP load: `npx tsx bench/profileHttp.ts post|get [DIR]`
// (BENCH_PORT, BENCH_DURATION_MS). The node runs with bench/cpuProfileHook.mjs and writes DIR/chorus.cpuprofile
// covering the measured load; `npx tsx scripts/cpuProfileSummary.ts DIR/chorus.cpuprofile` tells where the time went. The GET load first posts
// a few seconds of messages so every channel has a page of history.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createWorld } from './chorusSetup.js';
import { closedLoopGets, closedLoopPosts } from './httpLoad.js';
import { startChorus } from './processes.js';

const kind = process.argv[2] === 'get' ? 'get' : 'post';
const dir = process.argv[3] ?? `/tmp/chorus-http-prof/${kind}`;
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 10_000);
mkdirSync(dir, { recursive: true });
const chorus = await startChorus(Number(process.env.BENCH_PORT ?? 4400), {
  NODE_OPTIONS: `--import ${new URL('./cpuProfileHook.mjs', import.meta.url).pathname}`,
  CHORUS_CPU_PROFILE: `${dir}/chorus.cpuprofile`,
});
const world = await createWorld(chorus.baseUrl, 10);
const targets = (suffix: string) =>
  world.channelIds.map((id) => ({ token: world.owner.token, path: `/api/v10/channels/${id}/messages${suffix}` }));
if (kind === 'get') await closedLoopPosts(chorus.baseUrl, targets(''), 10, 2_000);
const load = kind === 'get' ? closedLoopGets : closedLoopPosts;
const profileFile = `${dir}/chorus.cpuprofile`;
rmSync(profileFile, { force: true });
process.kill(chorus.pid, 'SIGUSR2'); // the profile covers the measured load only
const result = await load(chorus.baseUrl, targets(kind === 'get' ? '?limit=50' : ''), 10, durationMs);
process.kill(chorus.pid, 'SIGUSR2');
while (!existsSync(profileFile)) await new Promise((resolve) => setTimeout(resolve, 100));
console.log(
  `${kind}: ${result.perSecond.toFixed(0)} req/s p50 ${result.p50.toFixed(2)} ms p99 ${result.p99.toFixed(2)} ms`,
);
await chorus.stop();
console.log(`profile in ${dir}`);
