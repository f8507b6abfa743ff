import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { ServiceUnavailableError } from '../../../src/domain/errors.js';
import { migrateKeyspace } from '../../../src/store/cassandra/CassandraSchema.js';
import type { CassandraSession } from '../../../src/store/cassandra/CassandraSession.js';
import type { Migration } from '../../../src/store/cassandra/migrations.js';

const MIGRATIONS: Migration[] = [
  { version: 1, name: 'one table', statements: ['CREATE TABLE t (id int PRIMARY KEY)'] },
];

/** A session whose first lock insert (or, with `statement`, another lock statement) times out as a settling cluster's Paxos round does. */
function settlingSession(statement = 'INSERT INTO schema_lock'): {
  session: CassandraSession;
  recorded: number[];
  lockAttempts: () => number;
} {
  const recorded: number[] = [];
  let attempts = 0;
  const fake = {
    ddl: () => Promise.resolve(),
    rows: () => Promise.resolve(recorded.map((version) => ({ get: () => version }))),
    write: (_query: string, params: readonly unknown[]) => {
      recorded.push(Number(params[0]));
      return Promise.resolve();
    },
    conditional: (query: string) => {
      if (query.startsWith(statement)) {
        attempts += 1;
        if (attempts === 1) return Promise.reject(new ServiceUnavailableError('CAS write timeout'));
      }
      return Promise.resolve({ applied: true, current: undefined });
    },
  };
  return { session: fake as unknown as CassandraSession, recorded, lockAttempts: () => attempts };
}

describe('migrateKeyspace on a cluster that is still settling', () => {
  it('tries the migration lock again after a lightweight-transaction timeout, then migrates', async () => {
    const { session, recorded, lockAttempts } = settlingSession();
    const applied = await migrateKeyspace(session, {
      keyspace: 'settling',
      replicationFactor: 3,
      migrations: MIGRATIONS,
      lockWaitMs: 5_000,
    });
    assert.deepEqual(applied, [1]);
    assert.deepEqual(recorded, [1]);
    assert.equal(lockAttempts(), 2);
  });

  it('tells onApplied of each migration it applied, after its version is recorded', async () => {
    const { session, recorded } = settlingSession();
    const told: { version: number; recordedThen: number[]; elapsedMs: number }[] = [];
    await migrateKeyspace(session, {
      keyspace: 'settling',
      replicationFactor: 3,
      migrations: MIGRATIONS,
      lockWaitMs: 5_000,
      onApplied: ({ version }, elapsedMs) => told.push({ version, recordedThen: [...recorded], elapsedMs }),
    });
    assert.deepEqual(
      told.map(({ version, recordedThen }) => ({ version, recordedThen })),
      [{ version: 1, recordedThen: [1] }],
    );
    assert.ok(told[0] !== undefined && told[0].elapsedMs >= 0);
  });

  it('tries a lock refresh again after a lightweight-transaction timeout, then migrates', async () => {
    const { session, recorded, lockAttempts } = settlingSession('UPDATE schema_lock');
    const applied = await migrateKeyspace(session, {
      keyspace: 'settling',
      replicationFactor: 3,
      migrations: MIGRATIONS,
      lockWaitMs: 5_000,
    });
    assert.deepEqual(applied, [1]);
    assert.deepEqual(recorded, [1]);
    assert.equal(lockAttempts(), 2);
  });

  it('gives up with the timeout once the lock wait is over', async () => {
    const { session } = settlingSession();
    await assert.rejects(
      migrateKeyspace(session, { keyspace: 'settling', replicationFactor: 3, migrations: MIGRATIONS, lockWaitMs: 0 }),
      ServiceUnavailableError,
    );
  });
});
