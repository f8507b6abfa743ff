import { createCassandraStores } from '../../../src/store/cassandra/createCassandraStores.js';
import { MIGRATIONS } from '../../../src/store/cassandra/migrations.js';
import { botApplicationMigrationContract } from '../../contract/botApplicationMigrationContract.js';
import {
  cassandraContactPoints,
  cassandraDataCenter,
  dropTestKeyspaces,
  requireCassandra,
  testKeyspace,
} from '../../support/cassandra.js';

describe('Cassandra migration 6: bot applications keyed by their bot user', function () {
  this.timeout(180_000);
  const keyspace = testKeyspace('rekey');
  const open = async (migrations = MIGRATIONS) => {
    const stores = await createCassandraStores({
      contactPoints: cassandraContactPoints,
      localDataCenter: cassandraDataCenter,
      keyspace,
      migrations,
    });
    return { stores, blobs: stores.blobs };
  };

  before(async () => requireCassandra());
  after(async () => dropTestKeyspaces([keyspace]));

  botApplicationMigrationContract({
    beforeMigration: () => open(MIGRATIONS.filter((migration) => migration.version <= 5)),
    afterMigration: () => open(),
  });
});
