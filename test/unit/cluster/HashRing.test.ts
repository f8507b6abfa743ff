import assert from 'node:assert/strict';
import { HashRing } from '../../../cluster/ring/HashRing.js';
import { ringHash, ringPointHex } from '../../../cluster/ring/ringHash.js';

const THREE = ['10.0.0.1:7001@1', '10.0.0.2:7001@1', '10.0.0.3:7001@1'];

function keys(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `channel:${1_000_000 + index * 7919}`);
}

describe('HashRing', () => {
  describe('ringHash', () => {
    // Golden vectors: the hash is protocol. If one of these changes, every node would place actors
    // differently from nodes still running the old code (Akka #25034).
    const golden: [string, string][] = [
      ['', 'd41d8cd98f00b204'],
      ['guild:1', '95d4db15e01a1769'],
      ['channel:175928847299117063', 'e3d67278d66d7b88'],
      ['session:abc', '32607b0dcb9d5a58'],
      ['user:80351110224678912', 'eb72155531a7edc2'],
    ];
    for (const [key, hex] of golden) {
      it(`hashes ${JSON.stringify(key)} to ${hex}`, () => {
        assert.equal(ringPointHex(ringHash(key)), hex);
      });
    }

    it('places golden keys on the same members', () => {
      const ring = new HashRing({ version: 1, members: THREE }, 128);
      assert.deepEqual(
        ['guild:1', 'guild:2', 'channel:3', 'user:4', 'session:5'].map((key) => ring.ownerOf(key)),
        ['10.0.0.2:7001@1', '10.0.0.1:7001@1', '10.0.0.3:7001@1', '10.0.0.1:7001@1', '10.0.0.3:7001@1'],
      );
    });
  });

  it('gives every key to the only member of a one-member ring', () => {
    const ring = new HashRing({ version: 1, members: ['a:1@1'] });
    assert.equal(ring.ownerOf('guild:42'), 'a:1@1');
  });

  it('computes the same placement whatever order the members are listed in', () => {
    const a = new HashRing({ version: 1, members: THREE });
    const b = new HashRing({ version: 1, members: [...THREE].reverse() });
    for (const key of keys(500)) assert.equal(a.ownerOf(key), b.ownerOf(key));
  });

  it('spreads keys roughly evenly over members', () => {
    const ring = new HashRing({ version: 1, members: THREE });
    const counts = new Map<string, number>();
    for (const key of keys(30_000)) counts.set(ring.ownerOf(key), (counts.get(ring.ownerOf(key)) ?? 0) + 1);
    for (const member of THREE) {
      const share = (counts.get(member) ?? 0) / 30_000;
      assert.ok(share > 0.25 && share < 0.42, `${member} owns ${share.toFixed(3)} of the keys`);
    }
  });

  describe('when a node joins', () => {
    it('moves about 1/N of the keys, all of them to the new node', () => {
      const before = new HashRing({ version: 1, members: THREE });
      const after = new HashRing({ version: 2, members: [...THREE, '10.0.0.4:7001@1'] });
      const all = keys(20_000);
      const moved = all.filter((key) => before.ownerOf(key) !== after.ownerOf(key));
      for (const key of moved) assert.equal(after.ownerOf(key), '10.0.0.4:7001@1', `${key} moved elsewhere`);
      const share = moved.length / all.length;
      assert.ok(share > 0.18 && share < 0.32, `moved ${share.toFixed(3)} of the keys, expected about 0.25`);
    });
  });

  describe('when a node leaves', () => {
    it('moves only the keys that node owned', () => {
      const before = new HashRing({ version: 1, members: THREE });
      const after = new HashRing({ version: 2, members: THREE.slice(0, 2) });
      const all = keys(20_000);
      let moved = 0;
      for (const key of all) {
        if (before.ownerOf(key) === '10.0.0.3:7001@1') moved += 1;
        else assert.equal(after.ownerOf(key), before.ownerOf(key), `${key} moved though its owner stayed`);
      }
      const share = moved / all.length;
      assert.ok(share > 0.25 && share < 0.42, `moved ${share.toFixed(3)} of the keys, expected about 1/3`);
    });
  });
});
