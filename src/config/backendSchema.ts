import { Type } from '@sinclair/typebox';
import { Formats, POSITIVE, PORT_RANGE, integer, list, text } from './configLeaves.js';

/** Where the data lives: one SQLite file (embedded) or Cassandra and Redis with gRPC between nodes (cluster). */
export const BackendSchema = Type.Object({
  mode: Type.Union([Type.Literal('embedded'), Type.Literal('cluster')], {
    env: 'CHORUS_MODE',
    description: '`embedded` (SQLite, one process) or `cluster` (Cassandra + Redis, many nodes)',
    default: 'embedded',
  }),
  dataDir: text(
    {
      env: 'CHORUS_DATA_DIR',
      description: 'SQLite file (`chorus.db`), attachments (`blobs/`), generated token secret',
    },
    './data',
    { minLength: 1 },
  ),
  cassandra: Type.Object({
    contactPoints: list(
      {
        env: 'CHORUS_CASSANDRA_CONTACT_POINTS',
        description: 'cluster mode: Cassandra contact points (comma separated)',
      },
      ['127.0.0.1'],
      Type.String({ minLength: 1 }),
      1,
    ),
    localDataCenter: text(
      { env: 'CHORUS_CASSANDRA_DC', description: 'cluster mode: local data centre' },
      'datacenter1',
      { minLength: 1 },
    ),
    keyspace: text(
      { env: 'CHORUS_CASSANDRA_KEYSPACE', description: 'cluster mode: keyspace' },
      'chorus',
      { pattern: '^[a-z][a-z0-9_]{0,47}$' }, // what CassandraSchema accepts (written into CQL unquoted)
    ),
  }),
  redis: Type.Object({
    url: text(
      { env: 'CHORUS_REDIS_URL', description: 'cluster mode: Redis for membership, leases, rate limits' },
      'redis://127.0.0.1:6379',
      { format: Formats.redisUrl },
    ),
    keyPrefix: text({ env: 'CHORUS_REDIS_PREFIX', description: 'cluster mode: prefix of every Redis key' }, 'chorus:'),
  }),
  grpcPort: integer(
    { env: 'CHORUS_GRPC_PORT', description: 'cluster mode: port for node-to-node gRPC (0: an ephemeral port)' },
    0,
    PORT_RANGE,
  ),
  nodeHost: text(
    {
      env: 'CHORUS_NODE_HOST',
      description: "cluster mode: host other nodes reach this node's gRPC server at (set per host)",
    },
    '127.0.0.1',
    { minLength: 1 },
  ),
  cassandraReplicationFactor: integer(
    { env: 'CHORUS_CASSANDRA_RF', description: 'cluster mode: replication factor of the keyspace (3 on three nodes)' },
    1,
    POSITIVE,
  ),
  heartbeatMs: integer(
    { env: 'CHORUS_MEMBER_HEARTBEAT_MS', description: 'cluster mode: membership heartbeat period' },
    1_000,
    POSITIVE,
  ),
  memberTtlMs: integer(
    {
      env: 'CHORUS_MEMBER_TTL_MS',
      description: 'cluster mode: a dead node leaves the membership view within about this + 1 s',
    },
    3_000,
    POSITIVE,
  ),
  leaseTtlMs: integer(
    {
      env: 'CHORUS_LEASE_TTL_MS',
      description: "cluster mode: actor lease lifetime (a dead node's actors move after it)",
    },
    3_000,
    POSITIVE,
  ),
});
