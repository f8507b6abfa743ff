import { systemClock, type Clock } from '../../src/domain/Clock.js';
import type { Logger } from '../../src/domain/Logger.js';
import {
  EMPTY_VIEW,
  VersionConflictError,
  viewOf,
  type MemberInfo,
  type MembershipOptions,
  type MembershipTable,
  type MembershipView,
} from './Membership.js';
import { TableMembership } from './TableMembership.js';

/**
 * The membership table in one process, with the semantics of the Redis one: heartbeats expire by the
 * injected clock, the view moves only by compare-and-set, and changes are announced to watchers.
 * Several InMemoryMembership instances sharing one table behave like nodes sharing one Redis.
 */
export class InMemoryMembershipTable implements MembershipTable {
  readonly #beats = new Map<string, { readonly info: MemberInfo; readonly expiresAt: number }>();
  readonly #watchers = new Set<(version: number) => void>();
  #view: MembershipView = EMPTY_VIEW;

  constructor(private readonly clock: Clock = systemClock) {}

  heartbeat(member: MemberInfo, ttlMs: number): Promise<void> {
    this.#beats.set(member.nodeId, { info: member, expiresAt: this.clock.now() + ttlMs });
    return Promise.resolve();
  }

  remove(nodeId: string): Promise<void> {
    this.#beats.delete(nodeId);
    return Promise.resolve();
  }

  read(): Promise<MembershipView> {
    return Promise.resolve(this.#view);
  }

  reconcile(expectedVersion: number, floor = 0): Promise<MembershipView> {
    const { version } = this.#view;
    if (version !== expectedVersion) return Promise.reject(new VersionConflictError(expectedVersion, version));
    const now = this.clock.now();
    const live: MemberInfo[] = [];
    for (const [nodeId, beat] of this.#beats) {
      if (beat.expiresAt > now) live.push(beat.info);
      else this.#beats.delete(nodeId);
    }
    const next = viewOf(version, live);
    if (next.members.join('\n') === this.#view.members.join('\n') && version >= floor)
      return Promise.resolve(this.#view);
    this.#view = viewOf(Math.max(version, floor) + 1, live);
    const announced = this.#view.version;
    // Delivered later, as pub/sub would be: a watcher never runs inside the writer's call.
    for (const watcher of this.#watchers) {
      queueMicrotask(() => {
        watcher(announced);
      });
    }
    return Promise.resolve(this.#view);
  }

  watch(listener: (version: number) => void): Promise<() => Promise<void>> {
    this.#watchers.add(listener);
    return Promise.resolve(() => {
      this.#watchers.delete(listener);
      return Promise.resolve();
    });
  }
}

/**
 * Membership over an in-memory table: embedded mode (a table of its own, one member) and tests
 * (several instances given one shared table behave like nodes on one Redis).
 */
export class InMemoryMembership extends TableMembership {
  constructor(
    log: Logger,
    table: InMemoryMembershipTable = new InMemoryMembershipTable(),
    options: Partial<MembershipOptions> = {},
    clock?: Clock,
  ) {
    super(table, options, log, clock);
  }
}
