import assert from 'node:assert/strict';

import cassandra from 'cassandra-driver';

import type { Stores } from '../../../actors/runtime/ports/stores.js';
import { ConflictError, InternalError, ServiceUnavailableError } from '../../../src/domain/errors.js';
import { toStoreError } from '../../../src/store/cassandra/cassandraErrors.js';
import { tableIdOf } from '../../../src/store/cassandra/CassandraSchema.js';
import {
  createCassandraStores,
  type CassandraStoresOptions,
  type CassandraStores,
} from '../../../src/store/cassandra/createCassandraStores.js';
import { MIGRATIONS } from '../../../src/store/cassandra/migrations.js';
import { aChannel, aMessage, aUser, nextId } from '../../contract/records.js';
import { instanceCountsContract } from '../../contract/instanceCountsContract.js';
import { storesContract } from '../../contract/storesContract.js';
import {
  cassandraContactPoints,
  cassandraDataCenter,
  dropTestKeyspaces,
  requireCassandra,
  testKeyspace,
  withCassandraClient,
} from '../../support/cassandra.js';

/** Creating a keyspace's schema runs ~25 DDL statements, each waiting for schema agreement. */
const SCHEMA_TIMEOUT_MS = 180_000;

describe('CassandraStores', function () {
  const keyspace = testKeyspace();
  const created = [keyspace];
  const optionsFor = (name: string): CassandraStoresOptions => ({
    contactPoints: cassandraContactPoints,
    localDataCenter: cassandraDataCenter,
    keyspace: name,
  });
  /** One client over the migrated run keyspace, shared by every test (closed in after()). */
  let shared: Stores | undefined;
  const sharedStores = (): Stores => {
    if (shared === undefined) throw new Error('CassandraStores: before() did not create the stores');
    return shared;
  };

  before(async function () {
    this.timeout(SCHEMA_TIMEOUT_MS);
    await requireCassandra();
    shared = await createCassandraStores(optionsFor(keyspace));
  });

  after(async function () {
    this.timeout(SCHEMA_TIMEOUT_MS);
    await shared?.close();
    await dropTestKeyspaces(created);
  });

  describe('contract', () => {
    // The contract closes its Stores after every test; the shared client must outlive them.
    storesContract(() => Promise.resolve({ ...sharedStores(), close: () => Promise.resolve() }));
  });

  describe('instance counts contract', () => {
    instanceCountsContract(() => Promise.resolve({ ...sharedStores(), close: () => Promise.resolve() }));
  });

  describe('start-up', () => {
    it('applies nothing to an up-to-date keyspace and reads what another client wrote', async () => {
      const user = aUser();
      await sharedStores().users.create(user);
      const second = await createCassandraStores(optionsFor(keyspace));
      try {
        assert.deepEqual(await second.users.get(user.id), user);
      } finally {
        await second.close();
      }
      const versions = await withCassandraClient(async (client) =>
        (await client.execute(`SELECT version FROM ${keyspace}.schema_migrations`)).rows.map((row) =>
          Number(row.get('version')),
        ),
      );
      // Rows come in partition-token order, not by version.
      assert.deepEqual(
        versions.sort((a, b) => a - b),
        MIGRATIONS.map((migration) => migration.version),
      );
    });

    it('lets several nodes start at once on a new keyspace and ends with one schema', async function () {
      this.timeout(SCHEMA_TIMEOUT_MS);
      const raced = testKeyspace('race');
      created.push(raced);
      const starters = await Promise.all([1, 2, 3].map(() => createCassandraStores(optionsFor(raced))));
      try {
        const [first, second] = starters as [CassandraStores, CassandraStores, CassandraStores];
        const user = aUser();
        await first.users.create(user);
        assert.deepEqual(await second.users.findByEmail(user.email ?? ''), user);
      } finally {
        await Promise.all(starters.map((stores) => stores.close()));
      }
      await withCassandraClient(async (client) => {
        const applied = await client.execute(`SELECT version FROM ${raced}.schema_migrations`);
        assert.equal(applied.rowLength, MIGRATIONS.length);
        const tables = await client.execute('SELECT table_name, id FROM system_schema.tables WHERE keyspace_name = ?', [
          raced,
        ]);
        for (const row of tables.rows) {
          assert.equal(String(row.get('id')), tableIdOf(raced, String(row.get('table_name'))));
        }
        const lock = await client.execute(`SELECT owner FROM ${raced}.schema_lock`);
        assert.equal(lock.rowLength, 0);
      });
    });

    it('gives nodes starting at once one shared token secret and distinct snowflake generator ids', async function () {
      this.timeout(SCHEMA_TIMEOUT_MS);
      const starters = await Promise.all([1, 2, 3].map(() => createCassandraStores(optionsFor(keyspace))));
      try {
        const secrets = await Promise.all(starters.map((stores) => stores.clusterSettings.tokenSecret('')));
        assert.equal(new Set(secrets).size, 1, 'one secret for the whole cluster');
        assert.equal(await starters[0]?.clusterSettings.tokenSecret('configured'), 'configured');
        const ids = await Promise.all(
          starters.flatMap((stores) => [1, 2].map(() => stores.clusterSettings.allocateGeneratorId())),
        );
        assert.equal(new Set(ids).size, ids.length, `generator ids collide: ${ids.join(', ')}`);
        for (const id of ids) assert.ok(Number.isInteger(id) && id >= 0 && id < 1024);
      } finally {
        await Promise.all(starters.map((stores) => stores.close()));
      }
    });

    it('refuses a keyspace whose schema is newer than this build', async () => {
      await assert.rejects(
        createCassandraStores({ ...optionsFor(keyspace), migrations: [] }),
        (thrown: unknown) => thrown instanceof ServiceUnavailableError && /newer than this build/.test(thrown.message),
      );
    });

    it('reports an unreachable cluster as ServiceUnavailableError', async () => {
      await assert.rejects(
        createCassandraStores({ ...optionsFor(keyspace), contactPoints: ['127.0.0.1:1'] }),
        ServiceUnavailableError,
      );
    });

    it('rejects calls after close with ServiceUnavailableError', async () => {
      const closed = await createCassandraStores(optionsFor(keyspace));
      await closed.close();
      await assert.rejects(closed.users.get(nextId()), ServiceUnavailableError);
      await assert.rejects(closed.messages.insert(aMessage({ channel_id: nextId() })), ServiceUnavailableError);
      await closed.close(); // closing twice is harmless
    });
  });

  describe('on Cassandra', () => {
    it('pages correctly with cursors beyond the bigint range', async () => {
      const { messages } = sharedStores();
      const message = aMessage({ channel_id: nextId() });
      await messages.insert(message);
      const maxSnowflake = '18446744073709551615';
      assert.deepEqual(await messages.list(message.channel_id, { limit: 5, before: maxSnowflake }), [message]);
      assert.deepEqual(await messages.list(message.channel_id, { limit: 5, after: maxSnowflake }), []);
      assert.deepEqual(await messages.list(message.channel_id, { limit: 0 }), []);
    });

    it("keeps a Channel actor's fields over a later whole-record save of older ones (the Guild's copy)", async () => {
      const { channels } = sharedStores();
      const channel = aChannel({ last_message_id: nextId() });
      await channels.save(channel);
      const owned = { last_message_id: nextId(), last_pin_timestamp: '2026-11-26T10:00:00.000Z' };
      await channels.saveOwnerFields(channel, owned);
      await channels.save({ ...channel, name: 'renamed' }); // the Guild's record, with the values it last saw
      assert.deepEqual(await channels.get(channel.id), { ...channel, name: 'renamed', ...owned });
      assert.deepEqual(await channels.listByGuild(channel.guild_id ?? ''), [{ ...channel, name: 'renamed', ...owned }]);
    });

    it('keeps each message in the 10-day bucket of its snowflake', async () => {
      const { messages } = sharedStores();
      const message = aMessage({ channel_id: nextId() });
      await messages.insert(message);
      const bucket = Number((BigInt(message.id) >> 22n) / 864_000_000n);
      await withCassandraClient(async (client) => {
        const row = await client.execute(
          `SELECT message_id FROM ${keyspace}.messages WHERE channel_id = ? AND bucket = ?`,
          [message.channel_id, bucket],
          { prepare: true },
        );
        assert.deepEqual(
          row.rows.map((r) => String(r.get('message_id'))),
          [message.id],
        );
      });
    });

    it('lets exactly one of two accounts racing for one email in, and writes nothing of the other', async () => {
      const { users } = sharedStores();
      const email = `race_${nextId()}@example.test`;
      const [a, b] = [aUser({ email }), aUser({ email })];
      const results = await Promise.allSettled([users.create(a), users.create(b)]);
      const winners = results.filter((result) => result.status === 'fulfilled');
      assert.equal(winners.length, 1);
      const loser = results[0]?.status === 'fulfilled' ? b : a;
      const rejected = results.find((result) => result.status === 'rejected');
      assert.equal(rejected?.reason instanceof ConflictError && rejected.reason.message, 'Email already registered');
      assert.equal(await users.get(loser.id), undefined);
      assert.equal(await users.findByTag(loser.username, loser.discriminator), undefined);
      assert.deepEqual(await users.findByEmail(email), loser === a ? b : a);
    });

    it('takes over an email claim abandoned by a crashed writer', async () => {
      const email = `orphan_${nextId()}@example.test`;
      // A claim whose holder never wrote its record, made two minutes ago.
      await withCassandraClient((client) =>
        client.execute(
          `INSERT INTO ${keyspace}.users_by_email (email, owner_id, claimed_at) VALUES (?, ?, ?) IF NOT EXISTS`,
          [email, nextId(), new Date(Date.now() - 120_000)],
          { prepare: true },
        ),
      );
      const user = aUser({ email });
      await sharedStores().users.create(user);
      assert.deepEqual(await sharedStores().users.findByEmail(email), user);
    });
  });

  describe('driver errors', () => {
    const { errors, types } = cassandra;
    const codes = types.responseErrorCodes;

    it('maps unreachable, timed-out and overloaded clusters to ServiceUnavailableError', () => {
      const retryable = [
        new errors.NoHostAvailableError({}, 'All host(s) tried for query failed'),
        new errors.OperationTimedOutError('The host did not reply before timeout'),
        new errors.BusyConnectionError('127.0.0.1:9042', 2048, 1),
        new errors.ResponseError(codes.unavailableException, 'Not enough replicas available'),
        new errors.ResponseError(codes.writeTimeout, 'Operation timed out - received only 1 responses'),
        new errors.ResponseError(codes.readTimeout, 'Operation timed out'),
        new errors.ResponseError(codes.overloaded, 'Coordinator overloaded'),
        new errors.ResponseError(codes.isBootstrapping, 'Bootstrapping'),
      ];
      for (const thrown of retryable) {
        const mapped = toStoreError(thrown);
        assert.ok(mapped instanceof ServiceUnavailableError, `${thrown.message} → ${mapped.name}`);
        assert.equal(mapped.cause, thrown);
      }
    });

    it('maps statement errors to InternalError and keeps AppErrors', () => {
      assert.ok(
        toStoreError(new errors.ResponseError(codes.syntaxError, 'line 1:0 no viable alternative')) instanceof
          InternalError,
      );
      assert.ok(
        toStoreError(new errors.ResponseError(codes.invalid, 'Undefined column name')) instanceof InternalError,
      );
      assert.ok(toStoreError(new TypeError('Not a valid BigInt value')) instanceof InternalError);
      const conflict = new ConflictError('Email already registered');
      assert.equal(toStoreError(conflict), conflict);
    });
  });
});
