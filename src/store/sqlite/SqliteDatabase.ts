import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

import Database from 'better-sqlite3';

import { ServiceUnavailableError } from '../../domain/errors.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import { toStoreError, withCause, type ConflictNamer } from './sqliteErrors.js';
import { WalCheckpointer } from './WalCheckpointer.js';

/** SQLite's own default: the commit that grows the WAL past this many pages checkpoints it. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1_000;

/** How long a statement waits for another connection's lock before failing with SQLITE_BUSY. */
const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

/** Options for SqliteDatabase.open; the defaults suit the embedded server. */
export interface SqliteDatabaseOptions {
  readonly busyTimeoutMs?: number;
  /** The schema to bring the file up to; MIGRATIONS unless a test supplies its own. */
  readonly migrations?: readonly Migration[];
  /** Wall-clock source for `applied_at`. */
  readonly now?: () => number;
  /** Checkpoint the WAL from a worker thread (WalCheckpointer) rather than in commits; on unless false. */
  readonly checkpointInWorker?: boolean;
}

/** A row of `schema_migrations`. */
export interface AppliedMigration {
  readonly version: number;
  readonly name: string;
  readonly applied_at: string;
}

/**
 * One better-sqlite3 connection to a database file, opened in WAL mode with the schema migrated.
 * Stores share it; better-sqlite3 is synchronous, so each call runs to completion on this thread.
 */
export class SqliteDatabase {
  /** Writes still gathered in memory (see GroupCommit), done before the connection closes. */
  readonly #beforeClose: (() => void)[] = [];

  #checkpointer: WalCheckpointer | undefined;

  private constructor(
    readonly connection: Database.Database,
    /** Versions this open applied (empty when the file was already up to date). */
    readonly appliedAtOpen: readonly number[],
  ) {}

  /** Moves WAL checkpoints off this thread (a file only; an in-memory database has no WAL). */
  #checkpointElsewhere(path: string): void {
    this.connection.pragma('wal_autocheckpoint = 0');
    this.#checkpointer = new WalCheckpointer(path, () => {
      if (this.connection.open) this.connection.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
    });
  }

  /**
   * Opens (creating it and its directory if needed) and migrates the file at `path`.
   * Throws ServiceUnavailableError when the file cannot be opened, a migration fails (nothing of it
   * is kept), or the file's schema is newer than this build.
   */
  static open(path: string, options: SqliteDatabaseOptions = {}): SqliteDatabase {
    const migrations = options.migrations ?? MIGRATIONS;
    checkOrder(migrations);
    let connection: Database.Database;
    try {
      if (isFile(path)) mkdirSync(dirname(path), { recursive: true });
      connection = new Database(path);
    } catch (thrown) {
      throw withCause(new ServiceUnavailableError(`Cannot open database ${path}`), thrown);
    }
    try {
      connection.pragma('journal_mode = WAL');
      connection.pragma('synchronous = NORMAL');
      connection.pragma('foreign_keys = ON');
      connection.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS)}`);
      const applied = migrate(connection, migrations, options.now ?? Date.now);
      const database = new SqliteDatabase(connection, applied);
      if (options.checkpointInWorker !== false && isFile(path)) database.#checkpointElsewhere(path);
      return database;
    } catch (thrown) {
      connection.close();
      throw thrown;
    }
  }

  /** The migrations recorded in this file, oldest first. */
  appliedMigrations(): AppliedMigration[] {
    return this.connection
      .prepare<[], AppliedMigration>('SELECT version, name, applied_at FROM schema_migrations ORDER BY version')
      .all();
  }

  /**
   * Runs a synchronous database call as the promise the ports return, mapping engine errors:
   * uniqueness → ConflictError (named by `nameConflict`), busy/full/I/O/closed → ServiceUnavailableError.
   */
  call<T>(work: () => T, nameConflict?: ConflictNamer): Promise<T> {
    if (!this.connection.open) return Promise.reject(new ServiceUnavailableError('Storage is closed'));
    try {
      return Promise.resolve(work());
    } catch (thrown) {
      return Promise.reject(toStoreError(thrown, nameConflict));
    }
  }

  /** Wraps `work` in one write transaction (BEGIN IMMEDIATE): all of it is written, or none. */
  transaction<A extends unknown[], T>(work: (...args: A) => T): (...args: A) => T {
    const wrapped = this.connection.transaction(work);
    return (...args: A) => wrapped.immediate(...args);
  }

  /** Runs `flush` just before the connection closes, so writes handed in before close() are kept. */
  beforeClose(flush: () => void): void {
    this.#beforeClose.push(flush);
  }

  /** Closes the connection (after the beforeClose flushes); later calls reject with ServiceUnavailableError. Idempotent. */
  close(): void {
    if (!this.connection.open) return;
    for (const flush of this.#beforeClose) flush();
    this.#checkpointer?.stop();
    this.connection.close();
  }
}

/** Parses a `data` column back into its record (written by the same store, so trusted to match). */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the type is the caller's table's
export function fromJson<T>(data: string): T {
  return JSON.parse(data) as T;
}

/** Applies every migration the file lacks, each in its own transaction; returns the versions applied. */
function migrate(connection: Database.Database, migrations: readonly Migration[], now: () => number): number[] {
  connection.exec(
    `CREATE TABLE IF NOT EXISTS schema_migrations (
       version INTEGER PRIMARY KEY,
       name TEXT NOT NULL,
       applied_at TEXT NOT NULL
     ) STRICT`,
  );
  const newest = connection.prepare<[], number | null>('SELECT max(version) FROM schema_migrations').pluck().get();
  const known = migrations.at(-1)?.version ?? 0;
  if (newest != null && newest > known) {
    throw new ServiceUnavailableError(`Database schema version ${newest} is newer than this build knows (${known})`);
  }
  const isApplied = connection.prepare<[number], number>('SELECT 1 FROM schema_migrations WHERE version = ?').pluck();
  const record = connection.prepare<[number, string, string]>(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
  );
  // Checked inside the transaction so two processes opening one file apply each migration once.
  const applyOne = connection.transaction((migration: Migration): boolean => {
    if (isApplied.get(migration.version) !== undefined) return false;
    connection.exec(migration.sql);
    record.run(migration.version, migration.name, new Date(now()).toISOString());
    return true;
  });
  const applied: number[] = [];
  for (const migration of migrations) {
    try {
      if (applyOne.immediate(migration)) applied.push(migration.version);
    } catch (thrown) {
      const message = `Migration ${migration.version} (${migration.name}) failed`;
      throw withCause(new ServiceUnavailableError(message), thrown);
    }
  }
  return applied;
}

/** True for a path naming a file on disk (not `:memory:` nor a `file:` URI, which may name memory). */
function isFile(path: string): boolean {
  return path !== ':memory:' && path !== '' && !path.startsWith('file:');
}

/** Refuses a migration list whose versions are not positive and strictly increasing. */
function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    const previous = index === 0 ? 0 : (migrations[index - 1]?.version ?? 0);
    if (!Number.isInteger(migration.version) || migration.version <= previous) {
      throw new RangeError(`Migration versions must be positive and increasing; got ${migration.version}`);
    }
  });
}
