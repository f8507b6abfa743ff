import assert from 'node:assert/strict';
import { HashRing } from '../../cluster/ring/HashRing.js';
import { loadConfig } from '../../src/config/loadConfig.js';

/**
 * The ring at 100 and 1,000 members with the production vnode count (docs/scaling.md quotes these
 * figures). Balance is measured exactly, as each member's share of the hash space (HashRing.shares),
 * and checked against keys actually placed. With v points per member a member's share is close to a
 * Gamma(v, 1/v) variable (mean 1, deviation 1/√v: 8.8% at v = 128); its Chernoff tail is
 * P(share > t·mean) ≤ exp(-v·(t − 1 − ln t)). The bounds below are where that tail, summed over all
 * members, falls under 1%: a random set of node ids passes them 99 times in 100, while a broken ring
 * (points not spread, a member without points) is far outside them.
 */
const VNODES = loadConfig({}).cluster.vnodesPerNode;
/** Keys placed per ring: 1,000 a node at 100 nodes, 200 at 1,000 (about 1 s per 100,000 on a loaded 2-core machine). */
const KEYS_BY_SIZE: Record<number, number> = { 100: 100_000, 1_000: 200_000 };

function chernoffBound(members: number, vnodes: number): number {
  for (let t = 1.05; t < 3; t += 0.05) {
    if (members * Math.exp(-vnodes * (t - 1 - Math.log(t))) < 0.01) return t;
  }
  return 3;
}

/** Node ids as startClusterNode names them: `host:port@startedAt`. */
function nodeIds(count: number, from = 0): string[] {
  return Array.from(
    { length: count },
    (_, index) => `10.${((from + index) >> 8) & 255}.${(from + index) & 255}.7:7001@${1_764_129_000_000 + index}`,
  );
}

/** Actor keys of every kind, with snowflake-sized ids (sequential ids hash as well as random ones). */
function actorKeys(count: number): string[] {
  const kinds = ['guild', 'channel', 'user', 'session'];
  return Array.from({ length: count }, (_, index) => {
    const id = (1_300_000_000_000_000_000n + BigInt(index) * 4_194_304_007n).toString();
    return `${kinds[index % kinds.length] ?? 'guild'}:${id}`;
  });
}

function fmt(value: number): string {
  return value.toFixed(3);
}

for (const size of [100, 1_000]) {
  describe(`ring simulation: ${size} nodes, ${VNODES} vnodes each`, function () {
    this.timeout(20_000); // the before hook builds three rings and places every key on each
    const members = nodeIds(size);
    const joiner = nodeIds(1, size)[0] as string;
    const leaver = members[Math.floor(size / 2)] as string;
    const KEYS = KEYS_BY_SIZE[size] ?? 100_000;
    const keys = actorKeys(KEYS);
    let ring: HashRing;
    let owners: string[];

    before(() => {
      ring = new HashRing({ version: 1, members }, VNODES);
      owners = keys.map((key) => ring.ownerOf(key));
    });

    it('keeps the busiest node’s share of the keys within the bound of its vnode count', () => {
      const shares = [...ring.shares().values()];
      assert.equal(shares.length, size);
      assert.ok(Math.abs(shares.reduce((sum, share) => sum + share, 0) - 1) < 1e-9, 'the shares cover the ring');
      const mean = 1 / size;
      const maxOverMean = Math.max(...shares) / mean;
      const minOverMean = Math.min(...shares) / mean;
      const bound = chernoffBound(size, VNODES);
      // The keys placed agree with the exact shares (sampling noise aside).
      const counts = new Map<string, number>();
      for (const owner of owners) counts.set(owner, (counts.get(owner) ?? 0) + 1);
      const sampledMax = Math.max(...counts.values()) / (KEYS / size);
      console.log(
        `      ${size} nodes × ${VNODES} vnodes: share max/mean ${fmt(maxOverMean)}, min/mean ${fmt(minOverMean)} ` +
          `(bound ${fmt(bound)}); ${KEYS} keys placed: max/mean ${fmt(sampledMax)}`,
      );
      assert.ok(maxOverMean < bound, `max/mean ${fmt(maxOverMean)} is above ${fmt(bound)}`);
      assert.ok(minOverMean > 0.5, `min/mean ${fmt(minOverMean)}: a member has almost no keys`);
      const busiest = [...ring.shares()].sort((a, b) => b[1] - a[1])[0] as [string, number];
      const expected = busiest[1] * KEYS;
      const placed = counts.get(busiest[0]) ?? 0;
      assert.ok(Math.abs(placed - expected) < 5 * Math.sqrt(expected), `${placed} keys placed, ${expected} expected`);
    });

    it('moves about 1/(n+1) of the keys on a join, every one of them to the new node', () => {
      const startedAt = performance.now();
      const after = new HashRing({ version: 2, members: [...members, joiner] }, VNODES);
      const buildMs = performance.now() - startedAt;
      let moved = 0;
      keys.forEach((key, index) => {
        const owner = after.ownerOf(key);
        if (owner === owners[index]) return;
        moved += 1;
        assert.equal(owner, joiner, `${key} moved from ${owners[index]} to ${owner}, not to the new node`);
      });
      const share = after.shares().get(joiner) ?? 0;
      const ideal = 1 / (size + 1);
      console.log(
        `      join at ${size}: moved ${moved} of ${KEYS} keys (${fmt((moved / KEYS) * (size + 1))} × 1/(n+1)); ` +
          `the new node's exact share ${fmt(share * (size + 1))} × 1/(n+1); ring derived in ${buildMs.toFixed(1)} ms`,
      );
      // What moved is the new node's arc, and that arc is a fair share within the balance bound.
      assert.ok(Math.abs(moved - share * KEYS) < 5 * Math.sqrt(share * KEYS) + 1, `${moved} keys moved`);
      const bound = chernoffBound(size, VNODES);
      assert.ok(share / ideal < bound && share / ideal > 1 / bound, `new share ${fmt(share / ideal)} × 1/(n+1)`);
    });

    it('moves exactly the leaver’s keys on a leave, and no other', () => {
      const startedAt = performance.now();
      const after = new HashRing({ version: 2, members: members.filter((member) => member !== leaver) }, VNODES);
      const buildMs = performance.now() - startedAt;
      let moved = 0;
      let leaversKeys = 0;
      keys.forEach((key, index) => {
        const owner = after.ownerOf(key);
        const before = owners[index];
        if (before === leaver) leaversKeys += 1;
        if (owner === before) return;
        moved += 1;
        assert.equal(before, leaver, `${key} moved from ${before}, which stayed`);
      });
      console.log(
        `      leave at ${size}: moved ${moved} keys = the leaver's ${leaversKeys} ` +
          `(${fmt((moved / KEYS) * size)} × 1/n); ring derived in ${buildMs.toFixed(1)} ms`,
      );
      assert.equal(moved, leaversKeys);
      assert.ok(moved > 0, 'the leaver owned keys');
    });
  });
}

describe('ring derivation: a view change derives the ring from the last one', () => {
  /** A ring built from scratch: a build at another vnode count first makes the next one start over. */
  function fullBuild(members: readonly string[]): HashRing {
    assert.ok(new HashRing({ version: 0, members: members.slice(0, 2) }, VNODES + 1));
    return new HashRing({ version: 0, members }, VNODES);
  }

  it('places every key as a full build does, through joins, leaves and restarts', () => {
    const keys = actorKeys(5_000);
    let members = nodeIds(60);
    const steps: ((current: string[]) => string[])[] = [
      (current) => [...current, ...nodeIds(1, 500)], // one joins
      (current) => current.filter((_, index) => index !== 7), // one leaves
      (current) => [...current.slice(3), ...nodeIds(2, 600)], // three leave, two join
      (current) => current.map((id, index) => (index === 0 ? id.replace(/@\d+$/, '@1764129999999') : id)), // a restart
      (current) => current, // unchanged (a pin change)
    ];
    for (const step of steps) {
      assert.ok(new HashRing({ version: 1, members }, VNODES)); // the last ring
      members = step(members);
      const derived = new HashRing({ version: 2, members }, VNODES);
      const derivedOwners = keys.map((key) => derived.ownerOf(key));
      const derivedShares = derived.shares();
      const full = fullBuild(members);
      assert.deepEqual(derivedShares, full.shares());
      assert.deepEqual(
        derivedOwners,
        keys.map((key) => full.ownerOf(key)),
      );
    }
  });
});
