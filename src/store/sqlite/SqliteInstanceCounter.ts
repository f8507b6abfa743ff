import type { InstanceCounter, InstanceCounts } from '../../domain/InstanceCounter.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

/** A count is reused for this long: counting messages walks the whole messages table. */
const DEFAULT_REUSE_MS = 10_000;

/**
 * Instance counts by COUNT(*) on the SQLite tables. Users, guilds and members count over small rows or
 * an index; messages (a WITHOUT ROWID table, no narrower index) cost a walk of every message page, so
 * a result is kept for `reuseMs` and a burst of stats requests costs one count.
 */
export class SqliteInstanceCounter implements InstanceCounter {
  readonly #count;
  #last: { counts: InstanceCounts; atMs: number } | undefined;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly reuseMs = DEFAULT_REUSE_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.#count = db.connection.prepare<[], { user: number; guild: number; message: number; members: number }>(
      `SELECT (SELECT COUNT(*) FROM users) AS user, (SELECT COUNT(*) FROM guilds) AS guild,
              (SELECT COUNT(*) FROM messages) AS message, (SELECT COUNT(*) FROM members) AS members`,
    );
  }

  counts(): Promise<InstanceCounts> {
    const last = this.#last;
    if (last !== undefined && this.now() - last.atMs < this.reuseMs) return Promise.resolve(last.counts);
    return this.db.call(() => {
      const row = this.#count.get();
      const counts: InstanceCounts = {
        user: row?.user ?? 0,
        guild: row?.guild ?? 0,
        message: row?.message ?? 0,
        members: row?.members ?? 0,
      };
      this.#last = { counts, atMs: this.now() };
      return counts;
    });
  }
}
