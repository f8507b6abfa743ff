import { createHash } from 'node:crypto';

/** A 64-bit ring position as two unsigned 32-bit halves (compared hi, then lo). */
export interface RingPoint {
  readonly hi: number;
  readonly lo: number;
}

/**
 * The ring's hash function: the first 8 bytes of MD5 over the UTF-8 key, big-endian. It is part of
 * the cluster protocol (every node must place keys identically), so it is frozen and guarded by the
 * golden vectors in test/unit/cluster/HashRing.test.ts; changing it moves every actor.
 */
export function ringHash(key: string): RingPoint {
  const digest = createHash('md5').update(key, 'utf8').digest();
  return { hi: digest.readUInt32BE(0), lo: digest.readUInt32BE(4) };
}

/** Orders ring points numerically. */
export function compareRingPoints(a: RingPoint, b: RingPoint): number {
  return a.hi !== b.hi ? a.hi - b.hi : a.lo - b.lo;
}

/** The point as a 16-digit hex string (for logs and golden vectors). */
export function ringPointHex(point: RingPoint): string {
  return point.hi.toString(16).padStart(8, '0') + point.lo.toString(16).padStart(8, '0');
}
