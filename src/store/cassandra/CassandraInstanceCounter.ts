import type { InstanceCounter, InstanceCounts } from '../../domain/InstanceCounter.js';
import type { Logger } from '../../domain/Logger.js';
import { withTimeLimit } from '../../domain/timeLimit.js';
import type { CassandraSession } from './CassandraSession.js';

/** What the instance counts: the names of the `instance_counts` rows, as GET /policies/stats/ names them. */
export type CountedThing = keyof InstanceCounts;

/** Changes of one thing summed into one counter update per window (per node). */
const UPDATE_WINDOW_MS = 500;

/**
 * How long a clean close waits for the last updates before the session closes anyway: a failed update
 * settles at once (it is caught and logged), but one sent to a hung node would hold close for the driver's
 * whole read timeout (12 s), and a node being stopped should not wait that long for a count.
 */
export const CLOSE_WAIT_MS = 2_000;

interface Pending {
  delta: number;
  /** performance.now() of the last update sent. */
  sentAt: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Instance counts on Cassandra: one counter row per counted thing (migration 8), added to by the stores
 * after each insert or delete they made (a guild or member saved again is not counted again: the store
 * reads whether the row existed first). One partition read answers GET /policies/stats/.
 *
 * The counts are close, not exact, and documented so: counter updates are not idempotent, so one that
 * timed out may or may not have landed and is not retried; an update is sent once the row's own write
 * succeeded, so a node dying between the two misses it; and rows written before migration 8 (a keyspace
 * older than the counters) are not counted, since counting them would be a full scan of every table.
 *
 * Updates are not awaited by the write that caused them (no extra round trip on the message path),
 * and a burst is summed: the first change of a quiet thing is sent at once, the changes that follow
 * within UPDATE_WINDOW_MS go together at the window's end. Every node adds to the same few counter
 * cells and a counter update costs Cassandra a read under a lock: one per message was a second
 * Cassandra write per message (docs/scaling.md, "Cost per message"). This process's own `counts()`
 * sends what is pending and waits for the updates in flight, so it reads its own writes; another
 * process may read a count up to a window late. A clean close (the stores' `close`) sends what is
 * pending too and waits for it, up to CLOSE_WAIT_MS, before the session closes: only a node that dies
 * loses changes, at most a window's.
 */
export class CassandraInstanceCounter implements InstanceCounter {
  readonly #inFlight = new Set<Promise<void>>();
  readonly #pending = new Map<CountedThing, Pending>();

  constructor(
    private readonly session: CassandraSession,
    private readonly log?: Logger,
  ) {}

  /** Adds `delta` to a count; a failure is logged, not thrown (the write it follows has succeeded). */
  add(thing: CountedThing, delta: number): void {
    if (delta === 0) return;
    let pending = this.#pending.get(thing);
    if (!pending) this.#pending.set(thing, (pending = { delta: 0, sentAt: -Infinity, timer: undefined }));
    pending.delta += delta;
    if (pending.timer !== undefined) return; // goes at the end of the current window
    const wait = pending.sentAt + UPDATE_WINDOW_MS - performance.now();
    if (wait <= 0) this.#send(thing, pending);
    else {
      pending.timer = setTimeout(() => {
        this.#send(thing, pending);
      }, wait);
      pending.timer.unref();
    }
  }

  /** Sends now the changes waiting for the end of their window. */
  #sendPending(): void {
    for (const [thing, pending] of this.#pending) if (pending.timer !== undefined) this.#send(thing, pending);
  }

  #send(thing: CountedThing, pending: Pending): void {
    clearTimeout(pending.timer);
    pending.timer = undefined;
    const delta = pending.delta;
    pending.delta = 0;
    pending.sentAt = performance.now();
    if (delta === 0) return;
    const update = this.session
      .count('UPDATE instance_counts SET count = count + ? WHERE name = ?', [BigInt(delta), thing])
      .catch((error: unknown) => {
        this.log?.warn('instance count update lost', { thing, delta, error: String(error) });
      })
      .finally(() => this.#inFlight.delete(update));
    this.#inFlight.add(update);
  }

  /**
   * Sends what is pending and waits for the updates in flight, at most `maxWaitMs`; called by the stores'
   * close before the session closes, so the last window of a node stopped cleanly is not lost.
   */
  async close(maxWaitMs = CLOSE_WAIT_MS): Promise<void> {
    this.#sendPending();
    const updates = this.#inFlight.size;
    if (updates === 0) return;
    // The updates never reject (each catches and logs its own failure): a rejection here is the time limit.
    await withTimeLimit(Promise.all(this.#inFlight), maxWaitMs, () => new Error('close wait over')).catch(() => {
      this.log?.warn('instance count updates unconfirmed at close', { updates, maxWaitMs });
    });
  }

  async counts(): Promise<InstanceCounts> {
    this.#sendPending();
    await Promise.all(this.#inFlight);
    const counts = { user: 0, guild: 0, message: 0, members: 0 };
    const rows = await this.session.rows('SELECT name, count FROM instance_counts WHERE name IN ?', [
      Object.keys(counts),
    ]);
    for (const row of rows) {
      const name: unknown = row.get('name');
      const count: unknown = row.get('count');
      if (typeof name === 'string' && name in counts && typeof count === 'bigint')
        counts[name as CountedThing] = Number(count);
    }
    return counts;
  }
}
