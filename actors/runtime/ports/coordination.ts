import type { ActorKind } from '../ActorKind.js';

/**
 * Coordination ports for single activation (DESIGN §2, §8.1): the lease table that decides which
 * node may run an actor, and the guard the ActorHost consults around an activation. Implemented in
 * src/store (Redis for cluster mode, in-memory for embedded mode and tests) and cluster/lease.
 */

/** A lease held on an actor: `epoch` grows with every successful acquire and never repeats for a key. */
export interface LeaseGrant {
  readonly epoch: number;
}

/**
 * Actor leases with fencing epochs. `actorKey` is `kind:key`; `nodeId` is `host:port@incarnation`.
 * A lease lapses `ttlMs` after its last acquire or renew unless renewed.
 */
export interface LeaseTable {
  /**
   * Takes the lease unless another node holds a live one (then undefined). Taking it again from the
   * same node succeeds with a new epoch, which deposes that node's older activation too.
   */
  acquire(actorKey: string, nodeId: string, ttlMs: number): Promise<LeaseGrant | undefined>;
  /** Extends every listed lease this node still holds, in one round trip; returns the keys no longer ours. */
  renew(actorKeys: readonly string[], nodeId: string, ttlMs: number): Promise<string[]>;
  /** Frees the lease if this node holds it (and, when `epoch` is given, under that epoch). */
  release(actorKey: string, nodeId: string, epoch?: number): Promise<void>;
  /** True when this node holds the live lease under exactly this epoch. */
  check(actorKey: string, nodeId: string, epoch: number): Promise<boolean>;
}

/** Refuses a commit (throws WrongOwnerError) once the activation's lease is no longer ours. */
export type CommitFence = () => Promise<void>;

/**
 * What the ActorHost asks before and around an activation in cluster mode. Absent in embedded mode,
 * where one process is trivially the only owner.
 */
export interface ActivationGuard {
  /** Takes the actor's lease before it loads state; throws WrongOwnerError when another node holds it. */
  acquire(kind: ActorKind, key: string): Promise<number>;
  /** Resolves while the lease taken under `epoch` is still ours; throws WrongOwnerError once it is not. */
  assertCommittable(kind: ActorKind, key: string, epoch: number): Promise<void>;
  /** Frees the lease taken under `epoch` (after the actor's last write). */
  release(kind: ActorKind, key: string, epoch: number): Promise<void>;
}
