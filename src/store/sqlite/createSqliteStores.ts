import type { Stores } from '../../../actors/runtime/ports/stores.js';
import type { BlobRenameQueue } from '../../domain/blobRenames.js';
import { SqliteApplicationCommandStore } from './SqliteApplicationCommandStore.js';
import { SqliteApplicationStore } from './SqliteApplicationStore.js';
import { SqliteBlobRenames } from './SqliteBlobRenames.js';
import { SqliteChannelStore } from './SqliteChannelStore.js';
import { SqliteDatabase, type SqliteDatabaseOptions } from './SqliteDatabase.js';
import { SqliteGuildStore } from './SqliteGuildStore.js';
import { SqliteInstanceCounter } from './SqliteInstanceCounter.js';
import { SqliteMessageStore } from './SqliteMessageStore.js';
import { SqliteReadStateStore } from './SqliteReadStateStore.js';
import { SqliteUserStore } from './SqliteUserStore.js';
import { SqliteWebhookStore } from './SqliteWebhookStore.js';

/** The storage ports over one SQLite file, plus the blob renames its migrations queued. */
export interface SqliteStores extends Stores {
  readonly blobRenames: BlobRenameQueue;
}

/**
 * Opens (creating and migrating it if needed) the SQLite file at `path` and returns every storage port
 * over one connection. Throws ServiceUnavailableError when the file cannot be opened or migrated.
 */
export function createSqliteStores(path: string, options: SqliteDatabaseOptions = {}): SqliteStores {
  const db = SqliteDatabase.open(path, options);
  return {
    blobRenames: new SqliteBlobRenames(db),
    users: new SqliteUserStore(db),
    applications: new SqliteApplicationStore(db),
    applicationCommands: new SqliteApplicationCommandStore(db),
    guilds: new SqliteGuildStore(db),
    channels: new SqliteChannelStore(db),
    messages: new SqliteMessageStore(db),
    webhooks: new SqliteWebhookStore(db),
    readStates: new SqliteReadStateStore(db),
    counts: new SqliteInstanceCounter(db),
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}
