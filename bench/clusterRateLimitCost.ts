// What the cluster's rate limiting costs per request, hit by hit (one script round trip per request, as
// before RateReservations) against reserved in chunks: the same RedisRateLimiter and windows (a user's
// global one and a message bucket), the by-hit rounds on windows too long to be chunked. CPU-seconds per
// 1,000 requests of this process (the node's side) and of Redis, in alternating rounds so the shared
// machine's load falls on both alike. `npx tsx bench/clusterRateLimitCost.ts`.
import { connectRedis } from '../src/store/redis/connectRedis.js';
import { RedisRateLimiter } from '../src/store/redis/RedisRateLimiter.js';
import { createLogger } from '../src/domain/Logger.js';
import { redisPids, startCpuWindow } from './cpuAccounting.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const ROUNDS = 3;
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 10);
const prefix = `chorus_bench_rl${Date.now().toString(36)}:`;

const redis = await connectRedis(process.env.CHORUS_REDIS_URL ?? 'redis://127.0.0.1:6379', createLogger('silent'));
const limiter = new RedisRateLimiter(redis, prefix);
const pids = await redisPids();

/** A request's windows: chunked ones live 1 s and 5 s (as the bench's raised limits), by-hit ones a minute. */
const windowsOf = (user: number, chunked: boolean) => [
  { key: `global:${user}`, limit: 1_000_000, windowMs: chunked ? 1_000 : 60_000 },
  { key: `messages:1:${user}`, limit: 1_000_000, windowMs: chunked ? 5_000 : 61_000 },
];

async function round(chunked: boolean): Promise<{ node: number; redis: number }> {
  const window = startCpuWindow({ redis: pids });
  const started = process.cpuUsage();
  let sent = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_, user) => {
      while (sent < REQUESTS) {
        sent += 1;
        await limiter.hit(windowsOf(user, chunked));
      }
    }),
  );
  const used = process.cpuUsage(started);
  const per1000 = (seconds: number): number => (seconds / REQUESTS) * 1000;
  return { node: per1000((used.user + used.system) / 1e6), redis: per1000(window().redis ?? 0) };
}

try {
  await round(false); // warm-up: the script cache and JIT
  await round(true);
  const rows = { byHit: [] as { node: number; redis: number }[], chunked: [] as { node: number; redis: number }[] };
  for (let index = 0; index < ROUNDS; index += 1) {
    rows.byHit.push(await round(false));
    rows.chunked.push(await round(true));
  }
  const fmt = (values: { node: number; redis: number }[]): string =>
    values.map((value) => `${value.node.toFixed(3)} + ${value.redis.toFixed(3)}`).join(', ');
  console.log(`CPU-seconds per 1,000 requests, this process + Redis (${REQUESTS} a round, ${IN_FLIGHT} in flight):`);
  console.log(`  one round trip per request (before): ${fmt(rows.byHit)}`);
  console.log(`  reserved in chunks (after):          ${fmt(rows.chunked)}`);
} finally {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(keys);
  redis.destroy();
}
