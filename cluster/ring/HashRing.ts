import { compareRingPoints, ringHash, type RingPoint } from './ringHash.js';

/** A membership view: which nodes are live, under a version that only grows. */
export interface MembershipSnapshot {
  readonly version: number;
  /** Node ids (`host:port@incarnation`). */
  readonly members: readonly string[];
}

interface VirtualNode {
  readonly point: RingPoint;
  readonly member: string;
}

/**
 * An immutable consistent-hash ring with `vnodesPerNode` points per member. A key is owned by the
 * first point clockwise from its hash. Built from a sorted member list, so every node that sees the
 * same snapshot computes the same placement; a join or leave moves only about 1/N of the keys.
 */
export class HashRing {
  readonly version: number;
  readonly members: readonly string[];
  readonly #points: readonly VirtualNode[];
  readonly #cache = new Map<string, string>();

  constructor(snapshot: MembershipSnapshot, vnodesPerNode = 128) {
    this.version = snapshot.version;
    this.members = [...new Set(snapshot.members)].sort();
    const points: VirtualNode[] = [];
    for (const member of this.members) {
      for (let index = 0; index < vnodesPerNode; index += 1) {
        points.push({ point: ringHash(`${member}#${index}`), member });
      }
    }
    points.sort((a, b) => compareRingPoints(a.point, b.point) || (a.member < b.member ? -1 : 1));
    this.#points = points;
  }

  /** The member owning `key` (e.g. `channel:123`); throws when the ring is empty. */
  ownerOf(key: string): string {
    if (this.members.length === 1) return this.members[0] as string;
    const cached = this.#cache.get(key);
    if (cached !== undefined) return cached;
    const owner = this.#lookup(ringHash(key));
    if (this.#cache.size >= 100_000) this.#cache.clear(); // bounded; recomputing is cheap
    this.#cache.set(key, owner);
    return owner;
  }

  #lookup(point: RingPoint): string {
    const points = this.#points;
    if (points.length === 0) throw new Error('HashRing has no members');
    let low = 0;
    let high = points.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareRingPoints((points[mid] as VirtualNode).point, point) < 0) low = mid + 1;
      else high = mid;
    }
    return (points[low === points.length ? 0 : low] as VirtualNode).member;
  }
}
