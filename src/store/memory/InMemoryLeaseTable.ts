import type { LeaseGrant, LeaseTable } from '../../../actors/runtime/ports/coordination.js';
import { systemClock, type Clock } from '../../domain/Clock.js';

interface Lease {
  readonly nodeId: string;
  readonly epoch: number;
  expiresAt: number;
}

/**
 * The lease table in one process (embedded mode, unit tests): the semantics of RedisLeaseTable, with
 * expiry read from an injected clock so tests move time by hand. Several "nodes" may share one table.
 */
export class InMemoryLeaseTable implements LeaseTable {
  readonly #leases = new Map<string, Lease>();
  // One counter for every key, as in Redis: epochs only grow, per key and overall, and no per-key
  // counter outlives its lease (sessions would otherwise leave one behind each).
  #epoch = 0;
  #pruneAt = 1024;

  constructor(private readonly clock: Clock = systemClock) {}

  acquire(actorKey: string, nodeId: string, ttlMs: number): Promise<LeaseGrant | undefined> {
    const current = this.#live(actorKey);
    if (current && current.nodeId !== nodeId) return Promise.resolve(undefined);
    this.#epoch += 1;
    if (this.#leases.size >= this.#pruneAt) this.#prune();
    this.#leases.set(actorKey, { nodeId, epoch: this.#epoch, expiresAt: this.clock.now() + ttlMs });
    return Promise.resolve({ epoch: this.#epoch });
  }

  renew(actorKeys: readonly string[], nodeId: string, ttlMs: number): Promise<string[]> {
    const lost: string[] = [];
    const until = this.clock.now() + ttlMs;
    for (const actorKey of actorKeys) {
      const current = this.#live(actorKey);
      if (current?.nodeId === nodeId) current.expiresAt = until;
      else lost.push(actorKey);
    }
    return Promise.resolve(lost);
  }

  release(actorKey: string, nodeId: string, epoch?: number): Promise<void> {
    const current = this.#live(actorKey);
    if (current?.nodeId === nodeId && (epoch === undefined || current.epoch === epoch)) this.#leases.delete(actorKey);
    return Promise.resolve();
  }

  check(actorKey: string, nodeId: string, epoch: number): Promise<boolean> {
    const current = this.#live(actorKey);
    return Promise.resolve(current?.nodeId === nodeId && current.epoch === epoch);
  }

  /** Drops lapsed leases nobody asked about again, so the table stays as large as the live set. */
  #prune(): void {
    const now = this.clock.now();
    for (const [actorKey, lease] of this.#leases) if (lease.expiresAt <= now) this.#leases.delete(actorKey);
    this.#pruneAt = Math.max(1024, this.#leases.size * 2);
  }

  /** The lease on `actorKey` if it has not lapsed; a lapsed one is dropped on the way. */
  #live(actorKey: string): Lease | undefined {
    const lease = this.#leases.get(actorKey);
    if (lease && lease.expiresAt <= this.clock.now()) {
      this.#leases.delete(actorKey);
      return undefined;
    }
    return lease;
  }
}
