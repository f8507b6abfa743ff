import { RedisPinTable } from '../../../cluster/placement/RedisPinTable.js';
import { pinTableContract } from '../../contract/pinTableContract.js';
import { redisForSuite } from './redisTestKit.js';

describe('RedisPinTable', () => {
  const { prefix, redis } = redisForSuite();
  let tables = 0;
  // Each test gets keys of its own under the suite's prefix.
  pinTableContract(() => new RedisPinTable(redis(), `${prefix}${(tables += 1)}:`));
});
