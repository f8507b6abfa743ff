import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';

import { createCassandraStores, type CassandraStores } from '../../../src/store/cassandra/createCassandraStores.js';
import { BLOB_CHUNK_BYTES } from '../../../src/store/cassandra/CassandraBlobStore.js';
import { MIGRATIONS } from '../../../src/store/cassandra/migrations.js';
import { blobStoreContract } from '../../contract/blobStoreContract.js';
import * as testCassandra from '../../support/cassandra.js';

const SCHEMA_TIMEOUT_MS = 180_000;

describe('CassandraBlobStore', function () {
  this.timeout(30_000);
  // Its own keyspace with only the blobs table: one DDL statement instead of the whole schema.
  const keyspace = testCassandra.testKeyspace('blobs');
  let stores: CassandraStores | undefined;
  const blobs = () => {
    if (stores === undefined) throw new Error('CassandraBlobStore: before() did not connect');
    return stores.blobs;
  };

  before(async function () {
    this.timeout(SCHEMA_TIMEOUT_MS);
    await testCassandra.requireCassandra();
    stores = await createCassandraStores({
      contactPoints: testCassandra.cassandraContactPoints,
      localDataCenter: testCassandra.cassandraDataCenter,
      keyspace,
      migrations: MIGRATIONS.filter((migration) => migration.name === 'blobs'),
    });
  });

  after(async function () {
    this.timeout(SCHEMA_TIMEOUT_MS);
    await stores?.close();
    await testCassandra.dropTestKeyspaces([keyspace]);
  });

  describe('contract', () => {
    blobStoreContract(() => Promise.resolve(blobs()));
  });

  it('stores a blob as 256 KiB chunks in one partition', async () => {
    const key = `attachments/${randomBytes(4).toString('hex')}/1/big.bin`;
    await blobs().put(key, randomBytes(BLOB_CHUNK_BYTES * 2 + 1), 'application/octet-stream');
    const sizes = await testCassandra.withCassandraClient(async (client) => {
      const result = await client.execute(`SELECT chunk, data FROM ${keyspace}.blobs WHERE key = ?`, [key], {
        prepare: true,
      });
      return result.rows.map((row) => (row.get('data') as Buffer).length);
    });
    assert.deepEqual(sizes, [BLOB_CHUNK_BYTES, BLOB_CHUNK_BYTES, 1]);
  });

  it('reads a blob whose put never wrote its size as missing', async () => {
    const key = `attachments/${randomBytes(4).toString('hex')}/1/torn.bin`;
    await testCassandra.withCassandraClient((client) =>
      client.execute(`INSERT INTO ${keyspace}.blobs (key, chunk, data) VALUES (?, 0, ?)`, [key, Buffer.from('x')], {
        prepare: true,
      }),
    );
    assert.equal(await blobs().get(key), undefined);
  });
});
