import assert from 'node:assert/strict';

import type { ApplicationCommandRecord } from '../../actors/runtime/ports/applicationCommandStore.js';
import type { ApplicationRecord } from '../../actors/runtime/ports/records.js';
import type { Stores } from '../../actors/runtime/ports/stores.js';
import { hashedImageKey } from '../../src/domain/blobKeys.js';
import type { BlobStore } from '../../src/domain/BlobStore.js';
import { anApplication, nextId } from './records.js';

/** Stores and blobs of one engine, at some schema version. */
export interface StorageAt {
  readonly stores: Stores;
  readonly blobs: BlobStore;
}

/** How an engine's migration test opens its storage before and after the re-keying migration. */
export interface BotApplicationMigrationHarness {
  /** The storage migrated up to the schema before the re-keying migration (version 5). */
  beforeMigration(): Promise<StorageAt>;
  /** The same storage opened again with every migration, as a node starts (blob renames applied). */
  afterMigration(): Promise<StorageAt>;
}

const ICON = 'a'.repeat(32);

function aCommand(applicationId: string, scope: string, name: string): ApplicationCommandRecord {
  const id = nextId();
  return {
    id,
    application_id: applicationId,
    scope,
    data: { id, application_id: applicationId, version: nextId(), type: 1, name, description: name },
  };
}

/**
 * Migration 6 in either engine: an application whose bot has a user id of its own takes that id, with
 * its commands (every scope) and its icon; applications without a bot, or already keyed by their bot,
 * are left as they were.
 */
export function botApplicationMigrationContract(harness: BotApplicationMigrationHarness): void {
  const ownerId = nextId();
  const guildId = nextId();
  const botUserId = nextId();
  const legacy = anApplication({ owner_id: ownerId, bot_user_id: botUserId, icon: ICON, extra: { tags: ['x'] } });
  const botless = anApplication({ owner_id: ownerId });
  const matchedId = nextId();
  const matched = anApplication({ id: matchedId, owner_id: ownerId, bot_user_id: matchedId });
  const globals = [aCommand(legacy.id, '0', 'ping'), aCommand(legacy.id, '0', 'echo')];
  const guildCommands = [aCommand(legacy.id, guildId, 'local')];
  const iconBytes = Buffer.from('an icon, stored before the migration');
  let migrated: StorageAt;

  before(async function () {
    this.timeout(180_000);
    const { stores, blobs } = await harness.beforeMigration();
    for (const app of [legacy, botless, matched]) await stores.applications.create(app);
    await stores.applicationCommands.saveAll(legacy.id, '0', globals);
    await stores.applicationCommands.saveAll(legacy.id, guildId, guildCommands);
    await blobs.put(hashedImageKey('app-icons', legacy.id, ICON), iconBytes, 'image/png');
    await stores.close();
    migrated = await harness.afterMigration();
  });

  after(async () => migrated.stores.close());

  const expected: ApplicationRecord = { ...legacy, id: botUserId };
  const moved = (records: ApplicationCommandRecord[]) =>
    records.map((record) => ({
      ...record,
      application_id: botUserId,
      data: { ...record.data, application_id: botUserId },
    }));

  it("gives a bot's application the bot's user id, and the old id no longer names it", async () => {
    assert.deepEqual(await migrated.stores.applications.get(botUserId), expected);
    assert.equal(await migrated.stores.applications.get(legacy.id), undefined);
    assert.deepEqual(await migrated.stores.applications.findByBotUser(botUserId), expected);
    const owned = (await migrated.stores.applications.listByOwner(ownerId)).map((app) => app.id).sort();
    assert.deepEqual(owned, [botUserId, botless.id, matchedId].sort());
  });

  it('moves its commands of every scope, ids and versions kept', async () => {
    assert.deepEqual(await migrated.stores.applicationCommands.list(botUserId, '0'), moved(globals));
    assert.deepEqual(await migrated.stores.applicationCommands.list(botUserId, guildId), moved(guildCommands));
    assert.deepEqual(await migrated.stores.applicationCommands.list(legacy.id, '0'), []);
    assert.deepEqual(await migrated.stores.applicationCommands.list(legacy.id, guildId), []);
  });

  it('moves its icon to the key of its new id', async () => {
    const icon = await migrated.blobs.get(hashedImageKey('app-icons', botUserId, ICON));
    assert.deepEqual(icon?.data, iconBytes);
    assert.equal(await migrated.blobs.get(hashedImageKey('app-icons', legacy.id, ICON)), undefined);
  });

  it('leaves applications without a bot, or already keyed by it, as they were', async () => {
    assert.deepEqual(await migrated.stores.applications.get(botless.id), botless);
    assert.deepEqual(await migrated.stores.applications.get(matchedId), matched);
    assert.deepEqual(await migrated.stores.applications.findByBotUser(matchedId), matched);
  });
}
