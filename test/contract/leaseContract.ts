import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { LeaseTable } from '../../actors/runtime/ports/coordination.js';

/** A lease table under test, and a way to let time pass for its expiry. */
export interface LeaseFixture {
  readonly table: LeaseTable;
  /** Lets `ms` pass as far as lease expiry goes (a manual clock; in Redis, every lease's PTTL shortened). */
  elapse(ms: number): Promise<void>;
}

const A = '10.0.0.1:7001@1700000000000';
const B = '10.0.0.2:7001@1700000000000';
const TTL = 10_000;

/**
 * The LeaseTable contract (DESIGN §2 single activation, §8.1 fencing), run unchanged against the
 * in-memory table (unit/) and Redis (integration/). Keys are fresh per test, so a backend may be shared.
 */
export function leaseTableContract(create: () => Promise<LeaseFixture>): void {
  let fixture: LeaseFixture;
  let table: LeaseTable;
  const run = randomBytes(4).toString('hex');
  let counter = 0;
  const aKey = (): string => `channel:${run}${(counter += 1)}`;

  beforeEach(async () => {
    fixture = await create();
    table = fixture.table;
  });

  async function acquired(actorKey: string, nodeId: string, ttlMs = TTL): Promise<number> {
    const grant = await table.acquire(actorKey, nodeId, ttlMs);
    assert.ok(grant, `acquire of ${actorKey} by ${nodeId}: expected a grant, got none`);
    return grant.epoch;
  }

  it('grants a free lease and checks only its holder under its epoch', async () => {
    const key = aKey();
    const epoch = await acquired(key, A);
    assert.ok(epoch > 0);
    assert.equal(await table.check(key, A, epoch), true);
    assert.equal(await table.check(key, B, epoch), false);
    assert.equal(await table.check(key, A, epoch + 1), false);
    assert.equal(await table.check(aKey(), A, epoch), false);
  });

  it('refuses another node while the lease lives', async () => {
    const key = aKey();
    const epoch = await acquired(key, A);
    await fixture.elapse(TTL / 2);
    assert.equal(await table.acquire(key, B, TTL), undefined);
    assert.equal(await table.check(key, A, epoch), true);
  });

  it('grants a lapsed lease to another node under a higher epoch and deposes the old holder', async () => {
    const key = aKey();
    const first = await acquired(key, A);
    await fixture.elapse(TTL + 1);
    const second = await acquired(key, B);
    assert.ok(second > first, `epoch after takeover: expected > ${first}, got ${second}`);
    assert.equal(await table.check(key, A, first), false);
    assert.equal(await table.check(key, B, second), true);
    assert.deepEqual(await table.renew([key], A, TTL), [key]);
    await table.release(key, A, first);
    await table.release(key, A);
    assert.equal(await table.check(key, B, second), true, 'a deposed holder frees nothing');
  });

  it('keeps a renewed lease alive past its first ttl', async () => {
    const key = aKey();
    const epoch = await acquired(key, A);
    await fixture.elapse(TTL * 0.6);
    assert.deepEqual(await table.renew([key], A, TTL), []);
    await fixture.elapse(TTL * 0.6);
    assert.equal(await table.acquire(key, B, TTL), undefined);
    assert.equal(await table.check(key, A, epoch), true);
  });

  it('reports in one renewal every key the node no longer holds', async () => {
    const [mine, alsoMine, theirs, never, lapsed] = [aKey(), aKey(), aKey(), aKey(), aKey()];
    await acquired(lapsed, A, 1_000);
    await fixture.elapse(1_001);
    await acquired(mine, A);
    await acquired(alsoMine, A);
    await acquired(theirs, B);
    const lost = await table.renew([mine, theirs, alsoMine, never, lapsed], A, TTL);
    assert.deepEqual([...lost].sort(), [theirs, never, lapsed].sort());
  });

  it('renews thousands of leases in one call', async () => {
    const keys = Array.from({ length: 2_500 }, () => aKey());
    await Promise.all(keys.map((key) => acquired(key, A)));
    await fixture.elapse(TTL * 0.6);
    assert.deepEqual(await table.renew(keys, A, TTL), []);
    await fixture.elapse(TTL * 0.6);
    const sample = [keys[0], keys[1_234], keys[2_499]] as string[];
    for (const key of sample) assert.equal(await table.acquire(key, B, TTL), undefined, `${key} should still be held`);
  });

  it('frees a released lease for another node at once', async () => {
    const key = aKey();
    const first = await acquired(key, A);
    await table.release(key, A, first);
    assert.equal(await table.check(key, A, first), false);
    const second = await acquired(key, B);
    assert.ok(second > first);
  });

  it('ignores a release by a node that does not hold the lease', async () => {
    const key = aKey();
    const epoch = await acquired(key, A);
    await table.release(key, B);
    await table.release(key, B, epoch);
    assert.equal(await table.check(key, A, epoch), true);
  });

  it('gives the holder a new epoch when it acquires again, deposing its older activation', async () => {
    const key = aKey();
    const older = await acquired(key, A);
    const newer = await acquired(key, A);
    assert.ok(newer > older);
    assert.equal(await table.check(key, A, older), false);
    await table.release(key, A, older);
    assert.equal(await table.check(key, A, newer), true, 'a release under an old epoch keeps the new lease');
    assert.equal(await table.acquire(key, B, TTL), undefined);
  });

  it('never repeats an epoch for a key across releases, lapses and takeovers', async () => {
    const key = aKey();
    const epochs: number[] = [];
    for (let round = 0; round < 12; round += 1) {
      const node = round % 2 === 0 ? A : B;
      const epoch = await acquired(key, node, 1_000);
      epochs.push(epoch);
      if (round % 3 === 0) await table.release(key, node, epoch);
      else await fixture.elapse(1_001);
    }
    for (let index = 1; index < epochs.length; index += 1) {
      assert.ok((epochs[index] as number) > (epochs[index - 1] as number), `epochs must grow: ${epochs.join(', ')}`);
    }
  });
}
