import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Stores } from '../../actors/runtime/ports/stores.js';
import { RedisMembershipTable } from '../../cluster/membership/RedisMembership.js';
import { RedisPinTable } from '../../cluster/placement/RedisPinTable.js';
import type { Config } from '../config/Config.js';
import { createLogger } from '../domain/Logger.js';
import { createCassandraStores } from '../store/cassandra/createCassandraStores.js';
import { connectRedis } from '../store/redis/connectRedis.js';
import { createSqliteStores } from '../store/sqlite/createSqliteStores.js';
import { CliError } from './CliError.js';

/** The records the nodes of this configuration use: the SQLite file under CHORUS_DATA_DIR, or Cassandra. */
export async function openRecords(config: Config): Promise<Stores> {
  const { backend } = config;
  if (backend.mode !== 'cluster') {
    const file = join(backend.dataDir, 'chorus.db');
    // Opening creates a missing file: a mistyped CHORUS_DATA_DIR would answer from a new, empty instance.
    if (!existsSync(file)) throw new CliError(`no Chorus database at ${file}: set CHORUS_DATA_DIR to the node's`);
    return createSqliteStores(file);
  }
  return createCassandraStores({
    contactPoints: [...backend.cassandra.contactPoints],
    localDataCenter: backend.cassandra.localDataCenter,
    keyspace: backend.cassandra.keyspace,
    replicationFactor: backend.cassandraReplicationFactor,
  });
}

/** The cluster's membership and pin tables in CHORUS_REDIS_URL under CHORUS_REDIS_PREFIX. */
export interface ClusterTables {
  readonly membership: RedisMembershipTable;
  readonly pins: RedisPinTable;
  close(): void;
}

/** Connects to the cluster's Redis (whatever CHORUS_MODE says: these commands are about a cluster). */
export async function openClusterTables(config: Config): Promise<ClusterTables> {
  const { redis: settings } = config.backend;
  const redis = await connectRedis(settings.url, createLogger('silent'), { name: 'chorus-cli' });
  return {
    membership: new RedisMembershipTable(redis, settings.keyPrefix),
    pins: new RedisPinTable(redis, settings.keyPrefix),
    close: () => {
      redis.destroy();
    },
  };
}

/**
 * HTTP base URLs of the running nodes of this configuration: the cluster's live members (its Redis view;
 * none when Redis cannot be reached), or the embedded node at CHORUS_HOST and PORT (a wildcard host is
 * reached on loopback; PORT 0 names no address).
 */
export async function nodeUrlsOf(config: Config): Promise<string[]> {
  if (config.backend.mode === 'cluster') {
    const tables = await openClusterTables(config).catch(() => undefined);
    if (tables === undefined) return [];
    try {
      return (await tables.membership.read()).nodes.map((node) => node.httpUrl);
    } catch {
      return [];
    } finally {
      tables.close();
    }
  }
  const { host, port } = config.http;
  if (port === 0) return [];
  const address = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return [`http://${address}:${port}`];
}
