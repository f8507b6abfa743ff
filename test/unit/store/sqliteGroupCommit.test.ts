import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';

import { ConflictError } from '../../../src/domain/errors.js';
import { createSqliteStores } from '../../../src/store/sqlite/createSqliteStores.js';
import { GroupCommit } from '../../../src/store/sqlite/groupCommit.js';
import { SqliteDatabase } from '../../../src/store/sqlite/SqliteDatabase.js';
import { aMessage, nextId } from '../../contract/records.js';

describe('SQLite group commit', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-group-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the rows handed in during one turn inside one transaction', async () => {
    const path = join(dir, `rows-${nextId()}.db`);
    const db = SqliteDatabase.open(path);
    db.connection.exec('CREATE TABLE t (v INTEGER PRIMARY KEY)');
    const insert = db.connection.prepare<[number]>('INSERT INTO t (v) VALUES (?)');
    // A second connection sees only what is committed: inside one transaction, no earlier row of the group.
    const reader = new Database(path, { readonly: true });
    const committed = reader.prepare<[], number>('SELECT count(*) FROM t').pluck();
    const seen: { inTransaction: boolean; committed: number | undefined }[] = [];
    const group = new GroupCommit(db, (v: number) => {
      seen.push({ inTransaction: db.connection.inTransaction, committed: committed.get() });
      insert.run(v);
    });
    await Promise.all([group.add(1), group.add(2), group.add(3)]);
    assert.deepEqual(seen, Array(3).fill({ inTransaction: true, committed: 0 }));
    assert.equal(committed.get(), 3);
    assert.deepEqual(db.connection.prepare('SELECT v FROM t ORDER BY v').pluck().all(), [1, 2, 3]);
    reader.close();
    db.close();
  });

  it('rolls the whole group back when a row fails for another reason than a uniqueness rule', async () => {
    const db = SqliteDatabase.open(join(dir, `rollback-${nextId()}.db`));
    db.connection.exec('CREATE TABLE t (v INTEGER PRIMARY KEY)');
    const insert = db.connection.prepare<[number]>('INSERT INTO t (v) VALUES (?)');
    const group = new GroupCommit(db, (v: number) => {
      if (v === 2) throw new Error('disk on fire');
      insert.run(v);
    });
    const outcomes = await Promise.allSettled([group.add(1), group.add(2), group.add(3)]);
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      ['rejected', 'rejected', 'rejected'],
    );
    assert.equal(db.connection.prepare('SELECT count(*) FROM t').pluck().get(), 0);
    db.close();
  });

  it('refuses only the message that repeats an id; the others of its group are stored', async () => {
    const stores = createSqliteStores(join(dir, `messages-${nextId()}.db`));
    const channel = nextId();
    const first = aMessage({ channel_id: channel });
    await stores.messages.insert(first);
    const [before, repeat, after] = await Promise.allSettled([
      stores.messages.insert(aMessage({ channel_id: channel })),
      stores.messages.insert({ ...first, content: 'again' }),
      stores.messages.insert(aMessage({ channel_id: channel })),
    ]);
    assert.equal(before?.status, 'fulfilled');
    assert.equal(after?.status, 'fulfilled');
    assert.ok(repeat?.status === 'rejected' && repeat.reason instanceof ConflictError);
    const stored = await stores.messages.list(channel, { limit: 10 });
    assert.equal(stored.length, 3);
    assert.equal(stored.find((message) => message.id === first.id)?.content, first.content);
    await stores.close();
  });

  it('stores the messages handed in just before the database closes', async () => {
    const path = join(dir, `closing-${nextId()}.db`);
    const stores = createSqliteStores(path);
    const message = aMessage({ channel_id: nextId() });
    const inserted = stores.messages.insert(message);
    await stores.close();
    await inserted;
    const reopened = createSqliteStores(path);
    assert.deepEqual(await reopened.messages.get(message.channel_id, message.id), message);
    await reopened.close();
  });
});
