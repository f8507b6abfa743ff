import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ServiceUnavailableError } from '../../../src/domain/errors.js';
import { SqliteDatabase } from '../../../src/store/sqlite/SqliteDatabase.js';
import { MIGRATIONS, type Migration } from '../../../src/store/sqlite/migrations.js';

describe('SqliteDatabase', () => {
  let dir: string;
  let files = 0;
  const open: SqliteDatabase[] = [];
  const freshPath = () => join(dir, `db-${(files += 1)}.db`);
  /** Opens and remembers the database so afterEach closes it even when a test fails. */
  const openDb = (path: string, migrations?: readonly Migration[]) => {
    const db = SqliteDatabase.open(path, migrations === undefined ? { now: () => 1_700_000_000_000 } : { migrations });
    open.push(db);
    return db;
  };
  const tableNames = (db: SqliteDatabase) =>
    db.connection
      .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all();

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-sqlite-db-'));
  });

  afterEach(() => {
    for (const db of open.splice(0)) db.close();
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies every migration to a new file and records each one', () => {
    const db = openDb(freshPath());
    assert.deepEqual(
      db.appliedAtOpen,
      MIGRATIONS.map((m) => m.version),
    );
    assert.deepEqual(
      db.appliedMigrations(),
      MIGRATIONS.map((m) => ({ version: m.version, name: m.name, applied_at: '2023-11-14T22:13:20.000Z' })),
    );
    assert.ok(tableNames(db).includes('messages'));
  });

  it('applies nothing twice when an up-to-date file is reopened', () => {
    const path = freshPath();
    const recorded = openDb(path).appliedMigrations();
    open.pop()?.close();
    const reopened = openDb(path);
    assert.deepEqual(reopened.appliedAtOpen, []);
    assert.deepEqual(reopened.appliedMigrations(), recorded);
  });

  it('applies only the migrations a file lacks', () => {
    const path = freshPath();
    openDb(path);
    open.pop()?.close();
    // Versions may skip numbers (SQLite follows Cassandra's numbering), so the next one follows the newest.
    const next = (MIGRATIONS.at(-1)?.version ?? 0) + 1;
    const extended = [
      ...MIGRATIONS,
      { version: next, name: 'add notes', sql: 'CREATE TABLE notes (id TEXT PRIMARY KEY)' },
    ];
    const db = openDb(path, extended);
    assert.deepEqual(db.appliedAtOpen, [next]);
    assert.deepEqual(
      db.appliedMigrations().map((m) => m.version),
      extended.map((m) => m.version),
    );
    assert.ok(tableNames(db).includes('notes'));
  });

  it('keeps nothing of a failing migration and records only the ones before it', () => {
    const path = freshPath();
    const broken: Migration[] = [
      { version: 1, name: 'good', sql: 'CREATE TABLE good (id TEXT)' },
      { version: 2, name: 'bad', sql: 'CREATE TABLE half (id TEXT); CREATE TABLE good (id TEXT)' },
    ];
    assert.throws(() => openDb(path, broken), {
      name: 'ServiceUnavailableError',
      message: 'Migration 2 (bad) failed',
    });
    const db = openDb(path, broken.slice(0, 1));
    assert.deepEqual(db.appliedAtOpen, []);
    assert.deepEqual(
      db.appliedMigrations().map((m) => m.version),
      [1],
    );
    assert.ok(!tableNames(db).includes('half'));
  });

  it('refuses a file whose schema is newer than this build', () => {
    const path = freshPath();
    openDb(path, [...MIGRATIONS, { version: 99, name: 'future', sql: 'CREATE TABLE future (id TEXT)' }]);
    open.pop()?.close();
    assert.throws(() => openDb(path), ServiceUnavailableError);
  });

  it('refuses a migration list that is not strictly increasing', () => {
    const twice = [MIGRATIONS[0], MIGRATIONS[0]].filter((m): m is Migration => m !== undefined);
    assert.throws(() => openDb(freshPath(), twice), RangeError);
  });

  it('opens in WAL mode with foreign keys, NORMAL sync and a busy timeout', () => {
    const db = openDb(freshPath());
    const pragma = (name: string) => db.connection.pragma(name, { simple: true });
    assert.equal(pragma('journal_mode'), 'wal');
    assert.equal(pragma('foreign_keys'), 1);
    assert.equal(pragma('synchronous'), 1);
    assert.equal(pragma('busy_timeout'), 5000);
  });
});
