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

/**
 * Node a alone in the ring holding a lease keeper (evictions recorded), and node b, not started: `joinB` brings
 * it into a's view. `close` stops everything.
 */
async function twoNodes(port: number) {
  const table = new InMemoryMembershipTable();
  const [selfA, selfB] = [aMember(port), aMember(port + 1)];
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
  let stop = (): void => {};
  return {
    system,
    keeper,
    evicted,
    selfB,
    follow: () => (stop = followMembership(a, system, 16, keeper)),
    joinB: async () => {
      await b.start(selfB);
      await viewWhere(a, (view) => view.members.includes(selfB.nodeId), 'b in a view');
    },
    close: async () => {
      stop();
      keeper.stop();
      await b.stop();
      await a.stop();
    },
  };
}

describe('followMembership', () => {
  it('moves the ring to each new view and hands off the activations it places elsewhere', async () => {
    const nodes = await twoNodes(9001);
    const keys = Array.from({ length: 20 }, (_, index) => `${index}`);
    for (const key of keys) await nodes.keeper.acquire('guild', key);
    nodes.follow();
    try {
      assert.deepEqual(nodes.evicted, [], 'a lone member keeps everything');
      await nodes.joinB();
      const moved = keys
        .filter((key) => nodes.system.ownerOf('guild', key) === nodes.selfB.nodeId)
        .map((key) => `guild:${key}`);
      assert.ok(moved.length > 0 && moved.length < keys.length, `about half should move, ${moved.length} did`);
      assert.deepEqual(nodes.evicted.sort(), moved.sort());
    } finally {
      await nodes.close();
    }
  });

  it('hands a channel off where its guild goes, keeping it while it looks the guild up', async () => {
    const nodes = await twoNodes(9101);
    const { system } = nodes;
    // Channel n belongs to guild g<n> (its record, as the store would answer).
    let lookups = 0;
    system.bindChannelHomes((channelId) => {
      lookups += 1;
      return Promise.resolve(`g${channelId}`);
    });
    const channels = Array.from({ length: 20 }, (_, index) => `${index}`);
    for (const channel of channels) await nodes.keeper.acquire('channel', channel);
    nodes.follow();
    try {
      assert.equal(lookups, 0, 'a lone member places every channel on itself without a lookup');
      await nodes.joinB();
      assert.deepEqual(nodes.evicted, [], 'nothing moves before the guilds are known');
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(lookups, channels.length, 'each held channel was looked up once');
      await nodes.keeper.renewNow(); // a renewal round hands off again
      const moved = channels.filter((channel) => system.ownerOf('guild', `g${channel}`) === nodes.selfB.nodeId);
      assert.ok(moved.length > 0 && moved.length < channels.length, `about half should move, ${moved.length} did`);
      assert.deepEqual(nodes.evicted.sort(), moved.map((channel) => `channel:${channel}`).sort());
      for (const channel of channels)
        assert.equal(system.ownerOf('channel', channel), system.ownerOf('guild', `g${channel}`));
    } finally {
      await nodes.close();
    }
  });
});
