import Database from 'better-sqlite3';

import { ServiceUnavailableError, type AppError } from '../../domain/errors.js';
import type { SqliteDatabase } from './SqliteDatabase.js';
import { toStoreError, type ConflictNamer } from './sqliteErrors.js';

interface Pending<R> {
  readonly row: R;
  readonly resolve: () => void;
  readonly reject: (error: AppError) => void;
}

/** A broken uniqueness rule: SQLite undoes that one statement and the transaction goes on. */
const isConstraint = (thrown: unknown): boolean =>
  thrown instanceof Database.SqliteError && thrown.code.startsWith('SQLITE_CONSTRAINT');

/**
 * Writes rows handed in during one event-loop turn (e.g. messages stored by several Channel actors) in one
 * transaction: one WAL append and one commit for all of them instead of one each, which is most of what a
 * lone INSERT costs. Each caller still hears its own outcome: a row that breaks a uniqueness rule is refused
 * alone (ConflictError named by `nameConflict`); any other failure rolls the whole group back and every
 * caller gets it. A caller's promise settles only after the commit, so nothing is acknowledged unwritten; closing
 * the database writes the group being gathered first.
 */
export class GroupCommit<R> {
  #queue: Pending<R>[] = [];
  readonly #group;

  /** `written`, when given, runs in each group's transaction with the number of rows it wrote (none refused). */
  constructor(
    private readonly db: SqliteDatabase,
    private readonly write: (row: R) => void,
    private readonly nameConflict?: ConflictNamer,
    private readonly written?: (count: number) => void,
  ) {
    this.#group = db.transaction((rows: readonly R[]) => {
      const outcomes = rows.map((row) => this.#writeOne(row));
      const count = outcomes.filter((outcome) => outcome === undefined).length;
      if (count > 0) this.written?.(count);
      return outcomes;
    });
    db.beforeClose(this.#flush);
  }

  /** Queues the row for the group being gathered; settles once it is committed (or refused). */
  add(row: R): Promise<void> {
    if (!this.db.connection.open) return Promise.reject(new ServiceUnavailableError('Storage is closed'));
    return new Promise((resolve, reject) => {
      this.#queue.push({ row, resolve, reject });
      if (this.#queue.length === 1) setImmediate(this.#flush);
    });
  }

  #writeOne(row: R): AppError | undefined {
    try {
      this.write(row);
      return undefined;
    } catch (thrown) {
      if (!isConstraint(thrown)) throw thrown;
      return toStoreError(thrown, this.nameConflict);
    }
  }

  readonly #flush = (): void => {
    if (this.#queue.length === 0) return; // already written (by close, before its scheduled turn)
    const batch = this.#queue;
    this.#queue = [];
    let outcomes: (AppError | undefined)[];
    try {
      if (!this.db.connection.open) throw new ServiceUnavailableError('Storage is closed');
      const rows = batch.map((pending) => pending.row);
      // A lone row needs no transaction of its own (the statement commits by itself) unless `written` goes with it.
      const alone = rows.length === 1 && this.written === undefined;
      outcomes = alone ? [this.#writeOne(rows[0] as R)] : this.#group(rows);
    } catch (thrown) {
      const error = toStoreError(thrown, this.nameConflict);
      outcomes = batch.map(() => error);
    }
    batch.forEach((pending, index) => {
      const error = outcomes[index];
      if (error === undefined) pending.resolve();
      else pending.reject(error);
    });
  };
}
