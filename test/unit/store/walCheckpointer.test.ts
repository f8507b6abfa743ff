import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SqliteDatabase } from '../../../src/store/sqlite/SqliteDatabase.js';
import { WalCheckpointer } from '../../../src/store/sqlite/WalCheckpointer.js';
import { until } from '../../support/clusterNode.js';

describe('SQLite WAL checkpoints in a worker thread', () => {
  let dir: string;
  const open: SqliteDatabase[] = [];
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-wal-'));
  });
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** Commits about 2,000 pages, one row a transaction, as the message store's group commits do. */
  function writePages(db: SqliteDatabase): void {
    db.connection.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const insert = db.connection.prepare('INSERT INTO filler (body) VALUES (?)');
    for (let row = 0; row < 2_000; row += 1) insert.run('x'.repeat(4_000));
  }

  it('leaves commits without checkpoints and copies the log into the database file from the worker', async () => {
    const path = join(dir, 'worker.db');
    const db = SqliteDatabase.open(path);
    open.push(db);
    assert.equal(db.connection.pragma('wal_autocheckpoint', { simple: true }), 0);
    writePages(db);
    // Every page went to the log first; the worker's checkpoints grow the main file to hold them.
    await until(
      'the database file to hold the checkpointed rows',
      () => Promise.resolve(statSync(path).size > 2_000 * 4_000 ? true : undefined),
      { timeoutMs: 10_000 },
    );
  });

  it('keeps SQLite checkpointing in commits when asked not to use a worker', () => {
    const db = SqliteDatabase.open(join(dir, 'inline.db'), { checkpointInWorker: false });
    open.push(db);
    assert.equal(db.connection.pragma('wal_autocheckpoint', { simple: true }), 1_000);
  });

  it('reports a worker that could not open the file, so the writer checkpoints by itself again', async () => {
    const failed = await new Promise<unknown>((resolve) => {
      new WalCheckpointer(join(dir, 'missing', 'none.db'), resolve);
    });
    assert.match(String(failed), /unable to open|SQLITE_CANTOPEN|directory does not exist/i);
  });
});
