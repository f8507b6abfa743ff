import assert from 'node:assert/strict';

import { CassandraInstanceCounter } from '../../../src/store/cassandra/CassandraInstanceCounter.js';
import { createCassandraStores, type CassandraStores } from '../../../src/store/cassandra/createCassandraStores.js';
import { MIGRATIONS } from '../../../src/store/cassandra/migrations.js';
import * as testCassandra from '../../support/cassandra.js';

const SCHEMA_TIMEOUT_MS = 180_000;

describe('CassandraInstanceCounter on Cassandra', function () {
  this.timeout(30_000);
  // Its own keyspace with only the counter table: one DDL statement instead of the whole schema.
  const keyspace = testCassandra.testKeyspace('counts');
  const open = (): Promise<CassandraStores> =>
    createCassandraStores({
      contactPoints: testCassandra.cassandraContactPoints,
      localDataCenter: testCassandra.cassandraDataCenter,
      keyspace,
      migrations: MIGRATIONS.filter((migration) => migration.name === 'instance counts'),
    });
  const counterOf = (stores: CassandraStores): CassandraInstanceCounter => {
    assert.ok(stores.counts instanceof CassandraInstanceCounter);
    return stores.counts;
  };

  before(async function () {
    this.timeout(SCHEMA_TIMEOUT_MS);
    await testCassandra.requireCassandra();
    await (await open()).close();
  });

  after(async function () {
    this.timeout(SCHEMA_TIMEOUT_MS);
    await testCassandra.dropTestKeyspaces([keyspace]);
  });

  it("sends a window's pending changes on a clean close, so the next stores read them", async () => {
    const stopping = await open();
    const counter = counterOf(stopping);
    // The first change of each thing goes at once; the rest wait for the end of the 500 ms window.
    for (let index = 0; index < 5; index += 1) counter.add('message', 1);
    counter.add('user', 1);
    counter.add('user', 1);
    counter.add('members', 3);
    await stopping.close();

    const next = await open();
    try {
      assert.deepEqual(await counterOf(next).counts(), { user: 2, guild: 0, message: 5, members: 3 });
    } finally {
      await next.close();
    }
  });
});
