import { strict as assert } from 'node:assert';
import { Right } from '../../src/domain/rights.js';
import { createCassandraStores, type CassandraStores } from '../../src/store/cassandra/createCassandraStores.js';
import { aUser } from '../contract/records.js';
import {
  cassandraContactPoints,
  cassandraDataCenter,
  dropTestKeyspaces,
  requireCassandra,
  testKeyspace,
} from '../support/cassandra.js';
import { chorus } from './cliRun.js';

describe('chorus CLI in cluster mode (Cassandra)', function () {
  this.timeout(120_000);
  const keyspace = testKeyspace('cli');
  let stores: CassandraStores;
  const env = (): Record<string, string> => ({
    CHORUS_MODE: 'cluster',
    CHORUS_CASSANDRA_CONTACT_POINTS: cassandraContactPoints.join(','),
    CHORUS_CASSANDRA_DC: cassandraDataCenter,
    CHORUS_CASSANDRA_KEYSPACE: keyspace,
    // No node of this test's cluster runs: the CLI finds no member under this prefix and uses the keyspace.
    CHORUS_REDIS_PREFIX: `${keyspace}:`,
  });

  before(async () => {
    await requireCassandra();
    stores = await createCassandraStores({
      contactPoints: [...cassandraContactPoints],
      localDataCenter: cassandraDataCenter,
      keyspace,
    });
  });
  after(async () => {
    await stores.close();
    await dropTestKeyspaces([keyspace]);
  });

  it('grants and revokes rights in the keyspace the nodes share while none runs, with a warning', async () => {
    const user = aUser({ rights: Right.SEND_MESSAGES.toString() });
    await stores.users.create(user);
    const granted = await chorus(['rights', 'grant', user.id, 'OPERATOR'], env());
    assert.equal(granted.code, 0, granted.stderr);
    assert.match(granted.stdout, /OPERATOR SEND_MESSAGES/);
    assert.match(granted.stdout, /warning: no running node answered \(no node address known\)/);
    assert.equal(BigInt((await stores.users.get(user.id))?.rights ?? '0'), Right.OPERATOR | Right.SEND_MESSAGES);
    const revoked = await chorus(['rights', 'revoke', user.id, 'SEND_MESSAGES'], env());
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(BigInt((await stores.users.get(user.id))?.rights ?? '0'), Right.OPERATOR);
  });

  it('counts what the stores wrote in the keyspace the nodes share', async () => {
    const stats = await chorus(['stats'], env());
    assert.equal(stats.code, 0, stats.stderr);
    // A new keyspace, and the one account the test above created.
    assert.deepEqual(JSON.parse(stats.stdout), { counts: { user: 1, guild: 0, message: 0, members: 0 } });
  });
});
