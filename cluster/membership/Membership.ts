import { ConflictError } from '../../src/domain/errors.js';
import type { MembershipSnapshot } from '../ring/HashRing.js';

/** What a node publishes about itself; `nodeId` is `host:port@incarnation` (incarnation = start ms). */
export interface MemberInfo {
  readonly nodeId: string;
  /** `host:port` of the node's gRPC server. */
  readonly grpcAddress: string;
  readonly httpUrl: string;
  readonly gatewayUrl: string;
  /** Start time (ms since the epoch), the incarnation. */
  readonly startedAt: number;
  /**
   * `host:port` of the node's voice service as VOICE_SERVER_UPDATE names it: any node sends a client to the
   * voice service of the node the ring places its voice channel on. Absent in records of older nodes.
   */
  readonly voiceEndpoint?: string;
}

/** A membership view: the live members, sorted by id, under a version that only grows. */
export interface MembershipView extends MembershipSnapshot {
  readonly nodes: readonly MemberInfo[];
}

/** The empty view every node starts from (version 0 is never written). */
export const EMPTY_VIEW: MembershipView = Object.freeze({ version: 0, members: [], nodes: [] });

/** This node's membership in the cluster: its own heartbeat plus the view it currently believes. */
export interface Membership {
  /** Joins as `self`; resolves once the view includes it. Rejects when the table cannot be reached. */
  start(self: MemberInfo): Promise<void>;
  /** The newest view this node has seen (kept as is while the table is unreachable). */
  current(): MembershipView;
  /**
   * Sweeps and re-reads the view now (after a call reached a node that no longer owns the actor).
   * Resolves once done; rejects when the table cannot be reached (the last view stays).
   */
  refresh(): Promise<void>;
  /** Calls `listener` with each newer view; returns the unsubscribe. */
  onChange(listener: (view: MembershipView) => void): () => void;
  /** False while the table is unreachable (for the health endpoint). */
  healthy(): boolean;
  /** Time since the send of the last acknowledged heartbeat, by this process's monotonic clock. */
  heartbeatAgeMs(): number;
  /** Leaves gracefully (the others see it at once) and stops all timers. Never rejects. */
  stop(): Promise<void>;
}

/** Timing of the membership protocol (owned here, composed into Config). */
export interface MembershipOptions {
  /** How often a node refreshes its heartbeat. */
  readonly heartbeatMs: number;
  /** A heartbeat not refreshed for this long is gone, and its node leaves the view at the next sweep. */
  readonly ttlMs: number;
  /** How often a node re-reads the view and sweeps expired members (bounds a lost pub/sub message). */
  readonly refreshMs: number;
  /** Bound on one round trip to the table; a slower one counts as a failure. */
  readonly opTimeoutMs: number;
}

/** Defaults: a node that dies leaves every view within about ttl + refresh (4 s). */
export const DEFAULT_MEMBERSHIP_OPTIONS: MembershipOptions = Object.freeze({
  heartbeatMs: 1_000,
  ttlMs: 3_000,
  refreshMs: 1_000,
  opTimeoutMs: 1_000,
});

/** A view write made against a version that is no longer current; the writer must re-read. */
export class VersionConflictError extends ConflictError {
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`Membership view is at version ${actual}, not ${expected}`);
  }
}

/**
 * Where membership lives (Redis in cluster mode; memory for embedded mode and tests). Heartbeats
 * expire on their own; the view and its version change only through `reconcile`, a compare-and-set.
 */
export interface MembershipTable {
  /** Writes or refreshes the member's heartbeat, live for `ttlMs`. */
  heartbeat(member: MemberInfo, ttlMs: number): Promise<void>;
  /** Deletes the member's heartbeat (graceful leave); the next reconcile drops it from the view. */
  remove(nodeId: string): Promise<void>;
  /** The stored view. */
  read(): Promise<MembershipView>;
  /**
   * Compare-and-set: when the stored version is `expectedVersion`, recomputes the live set from the
   * heartbeats and, if it differs (or the version is below `floor`), stores it under a new version
   * (above both) and announces it. Throws VersionConflictError when the version has moved on.
   */
  reconcile(expectedVersion: number, floor?: number): Promise<MembershipView>;
  /** Calls `listener` with every version announced from now on; resolves to the unsubscribe. */
  watch(listener: (version: number) => void): Promise<() => Promise<void>>;
}

/** Builds a view from member records (sorted by id, so every node computes the same ring). */
export function viewOf(version: number, nodes: readonly MemberInfo[]): MembershipView {
  const sorted = [...nodes].sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));
  return { version, members: sorted.map((node) => node.nodeId), nodes: sorted };
}
