import { compareRingPoints, ringHash, type RingPoint } from './ringHash.js';

/** A membership view: which nodes are live, under a version that only grows. */
export interface MembershipSnapshot {
  readonly version: number;
  /** Node ids (`host:port@incarnation`). */
  readonly members: readonly string[];
}

/**
 * Placement overrides: actor key (`guild:123`) → the node it is pinned to, as a node id
 * (`host:port@incarnation`) or as `host:port` (whichever incarnation of that node is live).
 */
export type Pins = ReadonlyMap<string, string>;

const NO_PINS: Pins = new Map();

interface VirtualNode {
  readonly point: RingPoint;
  readonly member: string;
}

/**
 * An immutable consistent-hash ring with `vnodesPerNode` points per member. A key is owned by the
 * first point clockwise from its hash, unless it is pinned to a live member. Built from a sorted
 * member list, so every node that sees the same snapshot (and pins) computes the same placement; a
 * join or leave moves only about 1/N of the keys.
 */
export class HashRing {
  readonly version: number;
  readonly members: readonly string[];
  readonly #points: readonly VirtualNode[];
  /** Pins whose node is live, resolved to its member id; a pin to a node that is not live is ignored. */
  readonly #pinned: ReadonlyMap<string, string>;
  readonly #cache = new Map<string, string>();

  constructor(snapshot: MembershipSnapshot, vnodesPerNode = 128, pins: Pins = NO_PINS) {
    this.version = snapshot.version;
    this.members = [...new Set(snapshot.members)].sort();
    this.#points = pointsOf(this.members, vnodesPerNode);
    this.#pinned = resolvePins(this.members, pins);
  }

  /** The member owning `key` (e.g. `channel:123`); throws when the ring is empty. */
  ownerOf(key: string): string {
    if (this.members.length === 1) return this.members[0] as string;
    const pinned = this.#pinned.get(key);
    if (pinned !== undefined) return pinned;
    const cached = this.#cache.get(key);
    if (cached !== undefined) return cached;
    const owner = this.#lookup(ringHash(key));
    if (this.#cache.size >= 100_000) this.#cache.clear(); // bounded; recomputing is cheap
    this.#cache.set(key, owner);
    return owner;
  }

  /** The member a pin of `key` resolved to, or undefined when the key follows the ring. */
  pinnedOwnerOf(key: string): string | undefined {
    return this.#pinned.get(key);
  }

  /**
   * Each member's exact share of the hash space (the sum of the arcs ending at its points), so
   * balance can be measured without sampling noise. Pins are not counted: they are single keys.
   */
  shares(): Map<string, number> {
    const shares = new Map<string, number>(this.members.map((member) => [member, 0]));
    const points = this.#points;
    if (points.length === 0) return shares;
    // A point owns the arc from its predecessor (exclusive) to itself; the first one wraps around.
    let previous = positionOf((points[points.length - 1] as VirtualNode).point) - 2 ** 64;
    for (const { point, member } of points) {
      const position = positionOf(point);
      shares.set(member, (shares.get(member) ?? 0) + (position - previous) / 2 ** 64);
      previous = position;
    }
    return shares;
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

/**
 * The last points built. A view change usually adds or drops a member or two, so the next ring is
 * derived from these: the leavers' points filtered out, the joiners' hashed and merged in, O(points)
 * instead of hashing and sorting every point again (about 0.4 s at 1,000 members × 128 on a loaded
 * 2-core machine, an event-loop stall on every node at every change). A pin change reuses them as is.
 * The order is the same total order as a full build, so the placement is identical.
 */
let last:
  | { readonly vnodes: number; readonly members: ReadonlySet<string>; readonly points: readonly VirtualNode[] }
  | undefined;

function pointsOf(members: readonly string[], vnodesPerNode: number): readonly VirtualNode[] {
  const now = new Set(members);
  let points: readonly VirtualNode[];
  if (last?.vnodes === vnodesPerNode) {
    const before = last.members;
    const gone = [...before].filter((member) => !now.has(member));
    const joined = members.filter((member) => !before.has(member));
    points = gone.length === 0 ? last.points : last.points.filter((point) => now.has(point.member));
    if (joined.length > 0) points = merge(points, sortedPoints(joined, vnodesPerNode));
  } else {
    points = sortedPoints(members, vnodesPerNode);
  }
  last = { vnodes: vnodesPerNode, members: now, points };
  return points;
}

function sortedPoints(members: readonly string[], vnodesPerNode: number): VirtualNode[] {
  const points: VirtualNode[] = [];
  for (const member of members) {
    for (let index = 0; index < vnodesPerNode; index += 1) {
      points.push({ point: ringHash(`${member}#${index}`), member });
    }
  }
  return points.sort(compareVirtualNodes);
}

function merge(a: readonly VirtualNode[], b: readonly VirtualNode[]): VirtualNode[] {
  const merged: VirtualNode[] = new Array<VirtualNode>(a.length + b.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < merged.length; k += 1) {
    const left = a[i];
    const right = b[j];
    if (right === undefined || (left !== undefined && compareVirtualNodes(left, right) <= 0)) {
      merged[k] = left as VirtualNode;
      i += 1;
    } else {
      merged[k] = right;
      j += 1;
    }
  }
  return merged;
}

/** Ring order: by point, then by member id (two members hashing to one point still order the same everywhere). */
function compareVirtualNodes(a: VirtualNode, b: VirtualNode): number {
  return compareRingPoints(a.point, b.point) || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0);
}

/**
 * Resolves each pin to a live member: the member with that exact id, else the newest incarnation
 * of `host:port` (ids end in the start time, so the last in sorted order is the newest).
 */
function resolvePins(members: readonly string[], pins: Pins): ReadonlyMap<string, string> {
  if (pins.size === 0) return NO_PINS;
  const live = new Set(members);
  const newest = new Map<string, string>();
  for (const member of members) {
    const at = member.lastIndexOf('@');
    if (at > 0) newest.set(member.slice(0, at), member); // sorted: a later incarnation overwrites
  }
  const resolved = new Map<string, string>();
  for (const [key, target] of pins) {
    const member = live.has(target) ? target : newest.get(target);
    if (member !== undefined) resolved.set(key, member);
  }
  return resolved;
}

function positionOf(point: RingPoint): number {
  return point.hi * 2 ** 32 + point.lo;
}
