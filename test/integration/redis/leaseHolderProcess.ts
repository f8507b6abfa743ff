// A node in its own process holding one lease, for the pause (SIGSTOP) test. Lines on stdin:
// `commit` answers `committed` or `refused <ErrorName>`; `exit` releases and leaves.
import { createInterface } from 'node:readline';
import { LeaseKeeper } from '../../../cluster/lease/LeaseKeeper.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { connectRedis } from '../../../src/store/redis/connectRedis.js';
import { RedisLeaseTable } from '../../../src/store/redis/RedisLeaseTable.js';
import { REDIS_URL } from './redisTestKit.js';

const [prefix = '', nodeId = '', key = '', ttl = '300'] = process.argv.slice(2);
const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const log = createLogger('silent');
const redis = await connectRedis(REDIS_URL, log, { name: nodeId });
const keeper = new LeaseKeeper({
  nodeId,
  table: new RedisLeaseTable(redis, { keyPrefix: prefix }),
  options: { ttlMs: Number(ttl), driftMs: Number(ttl) / 10 },
  log,
});
keeper.start((kind, actor, lost) => {
  say(`evicted ${kind}:${actor}@${lost}`);
});
const epoch = await keeper.acquire('channel', key);
say(`acquired ${epoch}`);
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'commit') {
    keeper.assertCommittable('channel', key, epoch).then(
      () => {
        say('committed');
      },
      (error: unknown) => {
        say(`refused ${error instanceof Error ? error.name : String(error)}`);
      },
    );
  } else if (line === 'exit') {
    keeper.stop();
    void keeper.release('channel', key, epoch).finally(() => {
      redis.destroy();
      process.exit(0);
    });
  }
});
