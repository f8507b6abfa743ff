import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
    const db = SqliteDatabase.open(join(dir, `rows-${nextId()}.db`));
    db.connection.exec('CREATE TABLE t (v INTEGER PRIMARY KEY)');
    const insert = db.connection.prepare<[number]>('INSERT INTO t (v) VALUES (?)');
    const inTransaction: boolean[] = [];
    const group = new GroupCommit(db, (v: number) => {
      inTransaction.push(db.connection.inTransaction);
      insert.run(v);
    });
    await Promise.all([group.add(1), group.add(2), group.add(3)]);
    assert.deepEqual(inTransaction, [true, true, true]);
    assert.deepEqual(db.connection.prepare('SELECT v FROM t ORDER BY v').pluck().all(), [1, 2, 3]);
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
