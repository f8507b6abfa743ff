import assert from 'node:assert/strict';
import { InMemoryMembership, InMemoryMembershipTable } from '../../../../cluster/membership/InMemoryMembership.js';
import type { Clock } from '../../../../src/domain/Clock.js';
import { createLogger } from '../../../../src/domain/Logger.js';
import { aMember, FAST, membershipContract } from '../../../contract/membershipContract.js';

/** Wall time plus a jump tests can add, so heartbeats expire both by real timers and on demand. */
class JumpingClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
}

describe('InMemoryMembership', () => {
  membershipContract(() => {
    const clock = new JumpingClock();
    const table = new InMemoryMembershipTable(clock);
    return Promise.resolve({
      table: () => table,
      elapse: (ms: number) => {
        clock.offset += ms;
        return Promise.resolve();
      },
    });
  });

  it('makes a lone embedded node the only member of version 1', async () => {
    const membership = new InMemoryMembership(createLogger('silent'), undefined, FAST);
    const self = aMember(3001);
    await membership.start(self);
    assert.deepEqual(membership.current(), { version: 1, members: [self.nodeId], nodes: [self] });
    assert.equal(membership.healthy(), true);
    await membership.stop();
    assert.equal(membership.healthy(), false);
  });
});
