import assert from 'node:assert/strict';
import { ActorSystem } from '../../cluster/ActorSystem.js';
import { LeaseKeeper } from '../../cluster/lease/LeaseKeeper.js';
import { followMembership } from '../../cluster/membership/followMembership.js';
import { InMemoryMembership, InMemoryMembershipTable } from '../../cluster/membership/InMemoryMembership.js';
import { InMemoryPinTable } from '../../cluster/placement/InMemoryPinTable.js';
import { PinFollower } from '../../cluster/placement/PinFollower.js';
import type { PinTable } from '../../cluster/placement/PinTable.js';
import { HashRing } from '../../cluster/ring/HashRing.js';
import { ServiceUnavailableError } from '../../src/domain/errors.js';
import { createLogger } from '../../src/domain/Logger.js';
import { InMemoryLeaseTable } from '../../src/store/memory/InMemoryLeaseTable.js';
import { aMember, FAST, viewWhere } from '../contract/membershipContract.js';
import { pinTableContract } from '../contract/pinTableContract.js';

const log = createLogger('silent');
const NODES = ['10.0.0.1:7001@1764129000001', '10.0.0.2:7001@1764129000002', '10.0.0.3:7001@1764129000003'];
const KEYS = Array.from({ length: 2_000 }, (_, index) => `guild:${1_300_000_000_000_000_000n + BigInt(index)}`);

/** Resolves once `follower` has passed on pins of `version` (listeners registered earlier ran first). */
function pinsAt(follower: PinFollower, version: number): Promise<void> {
  if (follower.current().version >= version) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = follower.onChange((set) => {
      if (set.version < version) return;
      stop();
      resolve();
    });
  });
}

/** A key the ring alone places on `member`. */
function keyOwnedBy(ring: HashRing, member: string): string {
  const key = KEYS.find((candidate) => ring.ownerOf(candidate) === member);
  if (key === undefined) throw new Error(`no key on ${member}`);
  return key;
}

describe('ring pins: placement overrides consulted before the ring', () => {
  describe('InMemoryPinTable', () => {
    pinTableContract(() => new InMemoryPinTable());
  });

  const plain = new HashRing({ version: 1, members: NODES });
  const hot = keyOwnedBy(plain, NODES[0] as string);

  it('places a pinned key on the node it is pinned to, and every other key as the ring does', () => {
    const pinned = new HashRing({ version: 1, members: NODES }, 128, new Map([[hot, NODES[2] as string]]));
    assert.equal(pinned.ownerOf(hot), NODES[2]);
    assert.equal(pinned.pinnedOwnerOf(hot), NODES[2]);
    for (const key of KEYS) if (key !== hot) assert.equal(pinned.ownerOf(key), plain.ownerOf(key), key);
  });

  it('resolves a pin to host:port to the newest live incarnation of that node', () => {
    const restarted = '10.0.0.3:7001@1764129999999';
    const ring = new HashRing({ version: 2, members: [...NODES, restarted] }, 128, new Map([[hot, '10.0.0.3:7001']]));
    assert.equal(ring.ownerOf(hot), restarted);
  });

  it('falls back to the ring when the pinned node is not a live member', () => {
    const gone = new HashRing({ version: 1, members: NODES }, 128, new Map([[hot, '10.0.0.9:7001']]));
    assert.equal(gone.ownerOf(hot), plain.ownerOf(hot));
    assert.equal(gone.pinnedOwnerOf(hot), undefined);
    const oldIncarnation = new HashRing({ version: 1, members: NODES }, 128, new Map([[hot, '10.0.0.2:7001@1']]));
    assert.equal(oldIncarnation.ownerOf(hot), plain.ownerOf(hot));
  });

  it('follows pin changes: each newer set reaches the listener, a version check costs no re-read', async () => {
    const table = new InMemoryPinTable();
    const follower = new PinFollower(table, log, { refreshMs: 60_000 });
    await follower.start();
    const seen: number[] = [];
    follower.onChange((set) => seen.push(set.version));
    try {
      const first = await table.pin(hot, NODES[1] as string);
      await pinsAt(follower, first);
      assert.equal(follower.current().pins.get(hot), NODES[1]);
      const second = await table.unpin(hot);
      await pinsAt(follower, second);
      assert.equal(follower.current().pins.size, 0);
      assert.equal(await table.read(second), second, 'an unchanged version reads as the version alone');
      assert.deepEqual(seen, [first, second]);
    } finally {
      await follower.stop();
    }
  });

  it('keeps the last pins while the table cannot be read, and takes the newer ones once it can', async () => {
    const table = new InMemoryPinTable();
    let down = false;
    const flaky: PinTable = {
      read: (known) => (down ? Promise.reject(new ServiceUnavailableError('Redis is down')) : table.read(known)),
      pin: (key, node) => table.pin(key, node),
      unpin: (key) => table.unpin(key),
      watch: (listener) => table.watch(listener),
    };
    const follower = new PinFollower(flaky, log, { refreshMs: 60_000 });
    await follower.start();
    try {
      const first = await table.pin(hot, NODES[1] as string);
      await pinsAt(follower, first);
      down = true;
      const second = await table.pin(hot, NODES[2] as string);
      await assert.rejects(follower.refresh(), ServiceUnavailableError);
      assert.equal(follower.current().pins.get(hot), NODES[1], 'the last pins stay in force');
      down = false;
      await follower.refresh();
      assert.equal(follower.current().version, second);
      assert.equal(follower.current().pins.get(hot), NODES[2]);
    } finally {
      await follower.stop();
    }
  });

  it('moves a pinned actor as a view change does: the old owner evicts it, the pinned node owns it', async () => {
    const membershipTable = new InMemoryMembershipTable();
    const [selfA, selfB] = [aMember(9101), aMember(9102)];
    const a = new InMemoryMembership(log, membershipTable, FAST);
    const b = new InMemoryMembership(log, membershipTable, FAST);
    await a.start(selfA);
    await b.start(selfB);
    await viewWhere(a, (view) => view.members.length === 2, 'both in a view');
    const pinTable = new InMemoryPinTable();
    const pins = new PinFollower(pinTable, log, { refreshMs: 60_000 });
    await pins.start();
    const system = new ActorSystem(
      selfA.nodeId,
      new HashRing(a.current()),
      { askDeadlineMs: 1_000, vnodesPerNode: 16 },
      log,
    );
    const leases = new InMemoryLeaseTable();
    const keeper = new LeaseKeeper({ nodeId: selfA.nodeId, table: leases, options: {}, log });
    const evicted: string[] = [];
    keeper.start((kind, key, epoch) => {
      evicted.push(`${kind}:${key}`);
      void keeper.release(kind, key, epoch);
    });
    const stop = followMembership(a, system, 16, keeper, pins);
    try {
      const ids = KEYS.map((key) => key.slice('guild:'.length));
      const mine = ids.find((id) => system.ownerOf('guild', id) === selfA.nodeId) as string;
      await keeper.acquire('guild', mine);
      const hostPort = selfB.nodeId.slice(0, selfB.nodeId.lastIndexOf('@'));
      await pinsAt(pins, await pinTable.pin(`guild:${mine}`, hostPort));
      assert.equal(system.ownerOf('guild', mine), selfB.nodeId);
      assert.deepEqual(evicted, [`guild:${mine}`], 'the old owner evicted exactly the pinned actor');
      await assert.rejects(keeper.acquire('guild', mine), /moved|owned|another node/i, 'nor may it activate again');
      // Its lease is free, so the pinned node takes it at once (no ttl to wait out).
      assert.ok(await leases.acquire(`guild:${mine}`, selfB.nodeId, 1_000), 'the pinned node takes the lease');
      await pinsAt(pins, await pinTable.unpin(`guild:${mine}`));
      assert.equal(system.ownerOf('guild', mine), selfA.nodeId, 'unpinned, the key follows the ring again');
    } finally {
      stop();
      keeper.stop();
      await pins.stop();
      await b.stop();
      await a.stop();
    }
  });
});
