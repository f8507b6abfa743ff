import { performance } from 'node:perf_hooks';
import type { Clock } from '../../src/domain/Clock.js';
import { ServiceUnavailableError } from '../../src/domain/errors.js';
import { withTimeLimit } from '../../src/domain/timeLimit.js';
import type { Logger } from '../../src/domain/Logger.js';
import {
  DEFAULT_MEMBERSHIP_OPTIONS,
  EMPTY_VIEW,
  VersionConflictError,
  type MemberInfo,
  type Membership,
  type MembershipOptions,
  type MembershipTable,
  type MembershipView,
} from './Membership.js';

/** A clock that never jumps (NTP, wall-clock changes), for heartbeat ages. */
export const monotonicClock: Clock = { now: () => performance.now() };

/**
 * The membership protocol over any MembershipTable: a heartbeat every `heartbeatMs`; every
 * `refreshMs` a compare-and-set sweep that drops expired members (whichever node sees it first bumps
 * the version) and re-reads the view; announcements trigger an early re-read, so a lost one costs at
 * most one period. While the table is unreachable the node keeps its last view, reports unhealthy,
 * logs once, and recovers on its own.
 */
export class TableMembership implements Membership {
  readonly #options: MembershipOptions;
  readonly #listeners = new Set<(view: MembershipView) => void>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #self: MemberInfo | undefined;
  #view: MembershipView = EMPTY_VIEW;
  #healthy = false;
  #outageSince = 0;
  #lastBeatAt = Number.NEGATIVE_INFINITY;
  #syncing: Promise<void> | undefined;
  #syncAgain = false;
  #unwatch: (() => Promise<void>) | undefined;
  #stopped = false;
  /** Set once start() has joined: health changes before that are start()'s to report. */
  #running = false;

  constructor(
    private readonly table: MembershipTable,
    options: Partial<MembershipOptions>,
    private readonly log: Logger,
    private readonly clock: Clock = monotonicClock,
  ) {
    this.#options = { ...DEFAULT_MEMBERSHIP_OPTIONS, ...options };
  }

  async start(self: MemberInfo): Promise<void> {
    if (this.#self) throw new Error('Membership already started');
    this.#self = self;
    try {
      const sentAt = this.clock.now();
      await this.#bounded(this.table.heartbeat(self, this.#options.ttlMs), 'heartbeat');
      this.#lastBeatAt = sentAt;
      this.#unwatch = await this.#bounded(
        this.table.watch((version) => {
          if (version > this.#view.version) void this.#sync();
        }),
        'watch',
      );
      // A sweep racing ours can win with a view computed just before our heartbeat landed: go again.
      for (let attempt = 0; attempt < 5 && !this.#view.members.includes(self.nodeId); attempt += 1) {
        this.#adopt(await this.#reconcile());
      }
      if (!this.#view.members.includes(self.nodeId)) {
        throw new ServiceUnavailableError('Membership view never included this node');
      }
    } catch (error) {
      await this.#unwatch?.().catch(() => undefined);
      this.#unwatch = undefined;
      this.#self = undefined;
      throw error;
    }
    this.#healthy = true;
    this.#running = true;
    this.#every(this.#options.heartbeatMs, () => this.#beat());
    this.#every(this.#options.refreshMs, () => this.#sync());
    this.log.info('membership_joined', {
      nodeId: self.nodeId,
      version: this.#view.version,
      members: this.#view.members,
    });
  }

  current(): MembershipView {
    return this.#view;
  }

  async refresh(): Promise<void> {
    if (!this.#self || this.#stopped) return;
    await this.#sync();
    if (!this.#healthy) throw new ServiceUnavailableError('Membership table unreachable; keeping the last view');
  }

  onChange(listener: (view: MembershipView) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  healthy(): boolean {
    return this.#healthy && !this.#stopped;
  }

  heartbeatAgeMs(): number {
    return this.clock.now() - this.#lastBeatAt;
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    const self = this.#self;
    try {
      await this.#unwatch?.();
      if (self) {
        await this.#bounded(this.table.remove(self.nodeId), 'leave');
        // Announce the leave now rather than letting every node wait for the next sweep.
        this.#adopt(await this.#reconcile());
      }
    } catch (error) {
      this.log.warn('membership_leave_failed', { nodeId: self?.nodeId, err: errorMessage(error) });
    }
  }

  /** Runs `task` every `periodMs`, never two at once (the next run is scheduled when one ends). */
  #every(periodMs: number, task: () => Promise<void>): void {
    const schedule = (): void => {
      if (this.#stopped) return;
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        void task().finally(schedule);
      }, periodMs);
      timer.unref();
      this.#timers.add(timer);
    };
    schedule();
  }

  async #beat(): Promise<void> {
    const self = this.#self;
    if (!self || this.#stopped) return;
    const sentAt = this.clock.now();
    try {
      await this.#bounded(this.table.heartbeat(self, this.#options.ttlMs), 'heartbeat');
      this.#lastBeatAt = sentAt;
      this.#up();
    } catch (error) {
      this.#down(error);
    }
  }

  /**
   * Sweeps and re-reads. Triggers (timer, announcement, recovery) never overlap: one arriving during a
   * run makes it run once more, since that run may have read the view before the announced change.
   */
  #sync(): Promise<void> {
    if (this.#syncing) {
      this.#syncAgain = true;
      return this.#syncing;
    }
    this.#syncing = (async () => {
      try {
        do {
          this.#syncAgain = false;
          if (this.#stopped) return;
          try {
            this.#adopt(await this.#reconcile());
            this.#up();
          } catch (error) {
            this.#down(error);
            return;
          }
        } while (this.#syncAgain);
      } finally {
        this.#syncing = undefined;
      }
    })();
    return this.#syncing;
  }

  /**
   * A compare-and-set against the version this node last saw. A conflict means someone else moved the
   * view: retry once against their version, with ours as the floor (if the table lost its data and
   * restarted from 0, the version must still only grow). A second conflict: take the stored view.
   */
  async #reconcile(): Promise<MembershipView> {
    try {
      return await this.#bounded(this.table.reconcile(this.#view.version), 'sweep');
    } catch (error) {
      if (!(error instanceof VersionConflictError)) throw error;
      try {
        return await this.#bounded(this.table.reconcile(error.actual, this.#view.version), 'sweep');
      } catch (again) {
        if (!(again instanceof VersionConflictError)) throw again;
        return this.#bounded(this.table.read(), 'read');
      }
    }
  }

  #adopt(view: MembershipView): void {
    if (view.version <= this.#view.version) return;
    const before = this.#view;
    this.#view = view;
    const joined = view.members.filter((id) => !before.members.includes(id));
    const left = before.members.filter((id) => !view.members.includes(id));
    this.log.info('membership_changed', { version: view.version, joined, left, members: view.members.length });
    for (const listener of this.#listeners) {
      try {
        listener(view);
      } catch (error) {
        this.log.error('membership_listener_failed', { err: error });
      }
    }
  }

  #up(): void {
    if (this.#healthy || this.#stopped || !this.#running) return;
    this.#healthy = true;
    this.log.info('membership_recovered', { outageMs: Math.round(this.clock.now() - this.#outageSince) });
    void this.#sync(); // announcements sent during the outage were lost
  }

  #down(error: unknown): void {
    if (!this.#healthy || this.#stopped) return;
    this.#healthy = false;
    this.#outageSince = this.clock.now();
    this.log.warn('membership_unreachable', { nodeId: this.#self?.nodeId, err: errorMessage(error) });
  }

  /** Bounds one table call by `opTimeoutMs`, so a hung connection counts as an outage. */
  #bounded<T>(operation: Promise<T>, what: string): Promise<T> {
    const limit = this.#options.opTimeoutMs;
    return withTimeLimit(
      operation,
      limit,
      () => new ServiceUnavailableError(`Membership ${what} took longer than ${limit} ms`),
    );
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
