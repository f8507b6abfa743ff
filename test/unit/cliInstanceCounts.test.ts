import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatAge } from '../../src/cli/clusterCommands.js';
import { rightsMask } from '../../src/cli/rightsCommand.js';
import { Right, rightNames } from '../../src/domain/rights.js';
import { SqliteInstanceCounter } from '../../src/store/sqlite/SqliteInstanceCounter.js';
import { SqliteDatabase } from '../../src/store/sqlite/SqliteDatabase.js';
import { createSqliteStores } from '../../src/store/sqlite/createSqliteStores.js';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { instanceCountsContract } from '../contract/instanceCountsContract.js';
import { aGuild, aMessage, aUser, nextId } from '../contract/records.js';

describe('instance counts (GET /policies/stats/, chorus stats)', () => {
  let dir: string;
  let files = 0;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-counts-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  describe('SQLite store contract', () => {
    instanceCountsContract(() => Promise.resolve(createSqliteStores(join(dir, `counts-${(files += 1)}.db`))));
  });

  it('counts nothing in a new SQLite file', async () => {
    const stores = createSqliteStores(join(dir, 'empty.db'));
    try {
      assert.deepEqual(await stores.counts?.counts(), { user: 0, guild: 0, message: 0, members: 0 });
    } finally {
      await stores.close();
    }
  });

  it('counts the rows a file held before the counting migration, then keeps counting', async () => {
    const path = join(dir, 'older.db');
    const older = createSqliteStores(path, { migrations: MIGRATIONS.filter((migration) => migration.version < 8) });
    const user = aUser();
    await older.users.create(user);
    await older.messages.insert(aMessage({ channel_id: nextId() }));
    await older.close();
    const stores = createSqliteStores(path);
    try {
      assert.deepEqual(await stores.counts?.counts(), { user: 1, guild: 0, message: 1, members: 0 });
      await stores.users.create(aUser());
      assert.equal((await stores.counts?.counts())?.user, 2);
    } finally {
      await stores.close();
    }
  });

  it('reads the counts from the same file as a running node (a CLI process next to it)', async () => {
    const path = join(dir, 'shared.db');
    const node = createSqliteStores(path);
    const cliDb = SqliteDatabase.open(path);
    try {
      await node.guilds.saveGuild(aGuild());
      assert.equal((await new SqliteInstanceCounter(cliDb).counts()).guild, 1);
    } finally {
      cliDb.close();
      await node.close();
    }
  });
});

describe('chorus CLI helpers', () => {
  it('parses right names case-insensitively and names a mask back in bit order', () => {
    assert.equal(rightsMask(['operator', 'VIEW_SERVER_STATS']), Right.OPERATOR | Right.VIEW_SERVER_STATS);
    assert.deepEqual(rightNames(Right.SEND_MESSAGES | Right.OPERATOR), ['OPERATOR', 'SEND_MESSAGES']);
    assert.throws(() => rightsMask(['FLY']), /unknown right FLY/);
    assert.throws(() => rightsMask([]), /at least one right/);
  });

  it('shows an age in its two largest units', () => {
    assert.equal(formatAge(800), '800ms');
    assert.equal(formatAge(3 * 60_000 + 5_000), '3m5s');
    assert.equal(formatAge(26 * 3_600_000 + 7 * 60_000), '1d2h');
  });
});
