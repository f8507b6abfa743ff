import type { Stores } from '../../actors/runtime/ports/stores.js';
import { applicationCommandStoreContract } from './applicationCommandStoreContract.js';
import { applicationStoreContract } from './applicationStoreContract.js';
import { channelStoreContract } from './channelStoreContract.js';
import { guildStoreContract } from './guildStoreContract.js';
import { messageStoreContract } from './messageStoreContract.js';
import { readStateStoreContract } from './readStateStoreContract.js';
import { userStoreContract } from './userStoreContract.js';
import { webhookStoreContract } from './webhookStoreContract.js';

/**
 * The storage contract every Stores implementation runs unchanged (SQLite in unit/, Cassandra in
 * integration/). `create` runs before each test and the Stores it returns is closed after it. Tests
 * use fresh snowflakes, emails and tags, so an implementation may hand out views of one shared
 * database (say, one keyspace per run) rather than an empty one per test.
 */
export function storesContract(create: () => Promise<Stores>): void {
  let stores: Stores | undefined;
  const current = (): Stores => {
    if (stores === undefined) throw new Error('storesContract: no Stores (create() failed or ran outside a test)');
    return stores;
  };

  beforeEach(async () => {
    stores = await create();
  });

  afterEach(async () => {
    await stores?.close();
    stores = undefined;
  });

  describe('UserStore', () => {
    userStoreContract(current);
  });
  describe('ApplicationStore', () => {
    applicationStoreContract(current);
  });
  describe('ApplicationCommandStore', () => {
    applicationCommandStoreContract(current);
  });
  describe('GuildStore', () => {
    guildStoreContract(current);
  });
  describe('ChannelStore', () => {
    channelStoreContract(current);
  });
  describe('MessageStore', () => {
    messageStoreContract(current);
  });
  describe('WebhookStore', () => {
    webhookStoreContract(current);
  });
  describe('ReadStateStore', () => {
    readStateStoreContract(current);
  });
}
