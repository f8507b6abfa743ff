import assert from 'node:assert/strict';
import { ActorSystem } from '../../../../cluster/ActorSystem.js';
import { LeaseKeeper } from '../../../../cluster/lease/LeaseKeeper.js';
import { InMemoryMembership, InMemoryMembershipTable } from '../../../../cluster/membership/InMemoryMembership.js';
import { followMembership } from '../../../../cluster/membership/followMembership.js';
import { HashRing } from '../../../../cluster/ring/HashRing.js';
import { createLogger } from '../../../../src/domain/Logger.js';
import { InMemoryLeaseTable } from '../../../../src/store/memory/InMemoryLeaseTable.js';
import { aMember, FAST, viewWhere } from '../../../contract/membershipContract.js';

const log = createLogger('silent');

describe('followMembership', () => {
  it('moves the ring to each new view and hands off the activations it places elsewhere', async () => {
    const table = new InMemoryMembershipTable();
    const [selfA, selfB] = [aMember(9001), aMember(9002)];
    const a = new InMemoryMembership(log, table, FAST);
    const b = new InMemoryMembership(log, table, FAST);
    await a.start(selfA);
    const system = new ActorSystem(
      selfA.nodeId,
      new HashRing(a.current()),
      { askDeadlineMs: 1_000, vnodesPerNode: 16 },
      log,
    );
    const keeper = new LeaseKeeper({ nodeId: selfA.nodeId, table: new InMemoryLeaseTable(), options: {}, log });
    const evicted: string[] = [];
    keeper.start((kind, key) => evicted.push(`${kind}:${key}`));
    const keys = Array.from({ length: 20 }, (_, index) => `${index}`);
    for (const key of keys) await keeper.acquire('guild', key);
    const stop = followMembership(a, system, 16, keeper);
    try {
      assert.deepEqual(evicted, [], 'a lone member keeps everything');
      await b.start(selfB);
      await viewWhere(a, (view) => view.members.includes(selfB.nodeId), 'b in a view');
      const moved = keys.filter((key) => system.ownerOf('guild', key) === selfB.nodeId).map((key) => `guild:${key}`);
      assert.ok(moved.length > 0 && moved.length < keys.length, `about half should move, ${moved.length} did`);
      assert.deepEqual(evicted.sort(), moved.sort());
    } finally {
      stop();
      keeper.stop();
      await b.stop();
      await a.stop();
    }
  });
});
