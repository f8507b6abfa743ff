// Placement pins of a cluster (docs/scaling.md §6), in the Redis of CHORUS_REDIS_URL under CHORUS_REDIS_PREFIX:
//   npx tsx scripts/pin.ts                       lists the pins
//   npx tsx scripts/pin.ts guild:123 10.0.0.2:7001   pins guild 123 to that node (host:port or a node id)
//   npx tsx scripts/pin.ts --unpin guild:123     lets guild 123 follow the ring again
// Every node installs a change within its pub/sub delay (at most 5 s if an announcement is lost).
import { RedisPinTable } from '../cluster/placement/RedisPinTable.js';
import { loadConfig } from '../src/config/loadConfig.js';
import { ValidationError } from '../src/domain/errors.js';
import { createLogger } from '../src/domain/Logger.js';
import { connectRedis } from '../src/store/redis/connectRedis.js';

const { redis: settings } = loadConfig().backend;
const redis = await connectRedis(settings.url, createLogger('warn'), { name: 'chorus-pin-cli' });
try {
  const table = new RedisPinTable(redis, settings.keyPrefix);
  const [first, second] = process.argv.slice(2);
  if (first === '--unpin' && second !== undefined)
    console.log(`unpinned ${second}: pins v${await table.unpin(second)}`);
  else if (first !== undefined && second !== undefined)
    console.log(`pinned ${first} to ${second}: pins v${await table.pin(first, second)}`);
  else if (first !== undefined) throw new Error('Usage: scripts/pin.ts [KEY NODE | --unpin KEY]');
  const set = await table.read();
  if (typeof set !== 'number') {
    console.log(`pins v${set.version}${set.pins.size === 0 ? ': none' : ''}`);
    for (const [key, node] of set.pins) console.log(`  ${key} -> ${node}`);
  }
} catch (error) {
  // A refused pin says why, as the API would (field errors), without a stack.
  const detail = error instanceof ValidationError ? JSON.stringify(error.fieldErrors) : '';
  console.error(`${error instanceof Error ? error.message : String(error)} ${detail}`);
  process.exitCode = 1;
} finally {
  redis.destroy();
}
