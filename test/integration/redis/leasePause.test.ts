import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import type { RedisConnection } from '../../../src/store/redis/connectRedis.js';
import { RedisLeaseTable } from '../../../src/store/redis/RedisLeaseTable.js';
import { deleteKeys, plainClient, runPrefix } from './redisTestKit.js';

const TTL = 300;
const HOLDER = '127.0.0.1:7101@1';
const SUCCESSOR = '127.0.0.1:7102@1';

/** The child's stdout as awaitable lines. */
function lines(child: ChildProcessWithoutNullStreams): (what: RegExp, timeoutMs?: number) => Promise<string> {
  const seen: string[] = [];
  const waiters: { what: RegExp; resolve: (line: string) => void }[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const index = waiters.findIndex((waiter) => waiter.what.test(line));
    if (index >= 0) waiters.splice(index, 1)[0]?.resolve(line);
    else seen.push(line);
  });
  return (what, timeoutMs = 5_000) => {
    const found = seen.find((line) => what.test(line));
    if (found !== undefined) {
      seen.splice(seen.indexOf(found), 1);
      return Promise.resolve(found);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new Error(
            `Timed out after ${timeoutMs} ms waiting for the lease holder to print ${what}; it printed [${seen.join(' | ')}]`,
          ),
        );
      }, timeoutMs);
      waiters.push({
        what,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
    });
  };
}

describe('A lease holder paused by SIGSTOP', () => {
  const prefix = runPrefix();
  let redis: RedisConnection;
  let child: ChildProcessWithoutNullStreams | undefined;

  before(async () => {
    redis = await plainClient();
  });

  after(async () => {
    child?.kill('SIGKILL');
    await deleteKeys(redis, prefix);
    redis.destroy();
  });

  it('keeps its lease while running, loses it while stopped, and has its commit refused after SIGCONT', async () => {
    const key = 'paused';
    const script = fileURLToPath(new URL('./leaseHolderProcess.ts', import.meta.url));
    child = spawn(process.execPath, ['--import', 'tsx', script, prefix, HOLDER, key, String(TTL)]);
    const next = lines(child);
    const first = Number((await next(/^acquired /, 15_000)).split(' ')[1]);
    const table = new RedisLeaseTable(redis, { keyPrefix: prefix });

    // Running, it renews: for more than two ttls nobody else gets the lease (a bounded watch).
    const watchedUntil = performance.now() + TTL * 2.5;
    while (performance.now() < watchedUntil) {
      assert.equal(
        await table.acquire(`channel:${key}`, SUCCESSOR, TTL),
        undefined,
        'the running holder keeps its lease',
      );
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    child.stdin.write('commit\n');
    assert.equal(await next(/^(committed|refused)/), 'committed');

    child.kill('SIGSTOP');
    const stoppedAt = performance.now();
    let successor: { epoch: number } | undefined;
    while (!(successor = await table.acquire(`channel:${key}`, SUCCESSOR, 10_000))) {
      assert.ok(performance.now() - stoppedAt < 3_000, 'the stopped holder lease never lapsed');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.ok(successor.epoch > first);

    child.kill('SIGCONT');
    child.stdin.write('commit\n');
    assert.equal(await next(/^(committed|refused)/), 'refused WrongOwnerError');
    await next(/^evicted channel:paused@/);
    assert.equal(
      await table.check(`channel:${key}`, SUCCESSOR, successor.epoch),
      true,
      'the successor keeps the lease',
    );
    child.stdin.write('exit\n');
  });
});
