import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SqliteDatabase } from '../../../src/store/sqlite/SqliteDatabase.js';
import { SqliteMessageStore } from '../../../src/store/sqlite/SqliteMessageStore.js';
import { aMessage, nextId } from '../../contract/records.js';

describe('SQLite message count, kept once per group commit (migration 10)', () => {
  let dir: string;
  let db: SqliteDatabase;
  let store: SqliteMessageStore;
  const count = (): number | undefined =>
    db.connection.prepare<[], number>("SELECT count FROM instance_counts WHERE name = 'message'").pluck().get();

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-sqlite-counts-'));
    db = SqliteDatabase.open(join(dir, 'counts.db'));
    store = new SqliteMessageStore(db);
  });

  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts every message of one commit group, and not a duplicate refused in it', async () => {
    const channelId = nextId();
    const messages = Array.from({ length: 5 }, () => aMessage({ channel_id: channelId }));
    const outcomes = await Promise.allSettled([...messages, messages[2]].map((message) => store.insert(message!)));
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected'],
    );
    assert.equal(count(), 5);
    assert.equal((await store.list(channelId, { limit: 10 })).length, 5);
  });

  it('counts a message written alone, and uncounts it when deleted', async () => {
    const message = aMessage({ channel_id: nextId() });
    await store.insert(message);
    assert.equal(count(), 1);
    await store.delete(message.channel_id, [message.id]);
    assert.equal(count(), 0);
  });
});
