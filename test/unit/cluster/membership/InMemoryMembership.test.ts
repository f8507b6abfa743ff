import assert from 'node:assert/strict';
import { InMemoryMembership, InMemoryMembershipTable } from '../../../../cluster/membership/InMemoryMembership.js';
import type { Clock } from '../../../../src/domain/Clock.js';
import { createLogger } from '../../../../src/domain/Logger.js';
import { aMember, FAST, membershipContract, SeverableTable } from '../../../contract/membershipContract.js';
import { TableMembership } from '../../../../cluster/membership/TableMembership.js';
import { ServiceUnavailableError } from '../../../../src/domain/errors.js';

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

  it('refreshes on demand: the view includes a member that joined a moment ago, and a cut node says so', async () => {
    const table = new InMemoryMembershipTable();
    const slow = { ...FAST, refreshMs: 60_000 }; // no periodic sync during the test
    const link = new SeverableTable(table);
    const a = new TableMembership(link, slow, createLogger('silent'));
    await a.start(aMember(3101));
    const newcomer = aMember(3102);
    await table.heartbeat(newcomer, 5_000);
    assert.ok(!a.current().members.includes(newcomer.nodeId));
    await a.refresh();
    assert.ok(a.current().members.includes(newcomer.nodeId));
    link.cut = true;
    await assert.rejects(a.refresh(), ServiceUnavailableError);
    assert.ok(a.current().members.includes(newcomer.nodeId), 'the last view stays');
    link.cut = false;
    await a.stop();
  });
});
