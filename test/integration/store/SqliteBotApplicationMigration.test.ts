import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { applyBlobRenames } from '../../../src/domain/blobRenames.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { FileBlobStore } from '../../../src/store/file/FileBlobStore.js';
import { createSqliteStores } from '../../../src/store/sqlite/createSqliteStores.js';
import { MIGRATIONS } from '../../../src/store/sqlite/migrations.js';
import { botApplicationMigrationContract } from '../../contract/botApplicationMigrationContract.js';

describe('SQLite migration 6: bot applications keyed by their bot user', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chorus-sqlite-rekey-'));
  const path = join(dir, 'chorus.db');
  const blobs = new FileBlobStore(join(dir, 'blobs'));

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  botApplicationMigrationContract({
    beforeMigration: () =>
      Promise.resolve({
        stores: createSqliteStores(path, { migrations: MIGRATIONS.filter((migration) => migration.version <= 5) }),
        blobs,
      }),
    afterMigration: async () => {
      // As the embedded node starts: open (migrating), then apply the blob renames the migration queued.
      const stores = createSqliteStores(path);
      await applyBlobRenames(stores.blobRenames, blobs, createLogger('silent'));
      return { stores, blobs };
    },
  });
});
