import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SqliteDatabase } from '../../../src/store/sqlite/SqliteDatabase.js';
import { SqliteMessageStore } from '../../../src/store/sqlite/SqliteMessageStore.js';
import { MIGRATIONS } from '../../../src/store/sqlite/migrations.js';
import { aMessage } from '../../contract/records.js';

describe('SQLite migration 9 (messages in insertion order)', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-sqlite-messages-'));
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every message, its pin position and the message count of a file written before it', async () => {
    const path = join(dir, 'before-9.db');
    const before = SqliteDatabase.open(path, { migrations: MIGRATIONS.filter((m) => m.version < 9) });
    const insert = before.connection.prepare<[string, bigint, number | null, string]>(
      'INSERT INTO messages (channel_id, id, pin_seq, data) VALUES (?, ?, ?, ?)',
    );
    const written = ['1001', '1002', '1003'].map((id, index) =>
      aMessage({ channel_id: '7', id, content: `m${index}` }),
    );
    for (const [index, message] of written.entries()) {
      insert.run(message.channel_id, BigInt(message.id), index === 1 ? 1 : null, JSON.stringify(message));
    }
    insert.run('8', 1004n, null, JSON.stringify(aMessage({ channel_id: '8', id: '1004' })));
    before.close();

    const db = SqliteDatabase.open(path);
    try {
      assert.deepEqual(db.appliedAtOpen, [9, 10]);
      const store = new SqliteMessageStore(db);
      assert.deepEqual(
        (await store.list('7', { limit: 10 })).map((m) => m.content),
        ['m2', 'm1', 'm0'],
      );
      assert.deepEqual(
        (await store.listPinned('7')).map((m) => m.id),
        ['1002'],
      );
      const count = () =>
        db.connection.prepare<[], number>("SELECT count FROM instance_counts WHERE name = 'message'").pluck().get();
      assert.equal(count(), 4);
      await store.insert(aMessage({ channel_id: '7', id: '1005' }));
      await assert.rejects(store.insert(aMessage({ channel_id: '7', id: '1005' })), { name: 'ConflictError' });
      await store.delete('8', ['1004']);
      assert.equal(count(), 4);
    } finally {
      db.close();
    }
  });
});
