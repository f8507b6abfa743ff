import { ManualClock } from '../../../../src/domain/Clock.js';
import { InMemoryLeaseTable } from '../../../../src/store/memory/InMemoryLeaseTable.js';
import { leaseTableContract } from '../../../contract/leaseContract.js';

describe('InMemoryLeaseTable', () => {
  leaseTableContract(() => {
    const clock = new ManualClock();
    return Promise.resolve({
      table: new InMemoryLeaseTable(clock),
      elapse: (ms: number) => {
        clock.advance(ms);
        return Promise.resolve();
      },
    });
  });
});
