import { randomBytes } from 'node:crypto';

import cassandra from 'cassandra-driver';

/**
 * Helpers for tests against a real Cassandra (started by `bash scripts/cassandra.sh start 1`): where it
 * is, a keyspace name per test run, a loud failure when it is not there, and cleanup.
 */

/** Contact points of the test cluster (`CHORUS_CASSANDRA_CONTACT_POINTS`, comma-separated). */
export const cassandraContactPoints: readonly string[] = (process.env.CHORUS_CASSANDRA_CONTACT_POINTS ?? '127.0.0.1')
  .split(',')
  .map((point) => point.trim())
  .filter((point) => point !== '');

/** The local data centre (SimpleSnitch: `datacenter1`). */
export const cassandraDataCenter = process.env.CHORUS_CASSANDRA_DC ?? 'datacenter1';

/** Every keyspace a test creates starts with this, and only such keyspaces are ever dropped. */
const TEST_PREFIX = 'chat_test_';

/** Unique per process: base-36 time plus random hex, lower case (a valid unquoted CQL name). */
const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

/** `chat_test_<runId>`, or `chat_test_<runId>_<suffix>` for a second keyspace of the same run. */
export function testKeyspace(suffix?: string): string {
  return `${TEST_PREFIX}${runId}${suffix === undefined ? '' : `_${suffix}`}`;
}

/** Runs `work` with a plain driver client on the test cluster (no keyspace), then shuts it down. */
export async function withCassandraClient<T>(work: (client: cassandra.Client) => Promise<T>): Promise<T> {
  const client = new cassandra.Client({
    contactPoints: [...cassandraContactPoints],
    localDataCenter: cassandraDataCenter,
    encoding: { useBigIntAsLong: true },
    socketOptions: { connectTimeout: 5_000, readTimeout: 30_000 },
  });
  try {
    await client.connect();
    return await work(client);
  } finally {
    await client.shutdown();
  }
}

/**
 * Fails (never skips) when no Cassandra node answers CQL at the contact points, with the command that
 * starts one: a storage suite that silently passed without its database would prove nothing.
 */
export async function requireCassandra(): Promise<void> {
  try {
    await withCassandraClient((client) => client.execute('SELECT release_version FROM system.local'));
  } catch (thrown) {
    const where = cassandraContactPoints.join(', ');
    throw new Error(
      `Cassandra is not reachable at ${where} (${String(thrown)}). ` +
        'Start a node first: bash scripts/cassandra.sh fetch && bash scripts/cassandra.sh start 1',
      { cause: thrown },
    );
  }
}

/** Drops test keyspaces (names must start with `chat_test_`); missing ones are fine. */
export async function dropTestKeyspaces(names: readonly string[]): Promise<void> {
  for (const name of names) {
    if (!name.startsWith(TEST_PREFIX) || !/^[a-z0-9_]+$/.test(name)) throw new Error(`Not a test keyspace: ${name}`);
  }
  await withCassandraClient(async (client) => {
    for (const name of names) await dropWhenSchemaAgrees(client, `DROP KEYSPACE IF EXISTS ${name}`);
  });
}

/**
 * Runs a schema change, retrying a few times: right after a node of a multi-node cluster restarted, a
 * DROP can reach a node whose schema has not caught up yet ("Unknown CF") before the nodes agree again.
 */
async function dropWhenSchemaAgrees(client: cassandra.Client, statement: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.execute(statement);
      return;
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 2_000 * attempt));
    }
  }
}
