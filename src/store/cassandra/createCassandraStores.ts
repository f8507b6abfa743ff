import cassandra from 'cassandra-driver';

import type { Stores } from '../../../actors/runtime/ports/stores.js';
import type { Logger } from '../../domain/Logger.js';
import { CassandraApplicationCommandStore } from './CassandraApplicationCommandStore.js';
import { CassandraApplicationStore } from './CassandraApplicationStore.js';
import { CassandraBlobStore } from './CassandraBlobStore.js';
import { CassandraChannelStore } from './CassandraChannelStore.js';
import { CassandraClusterSettings } from './CassandraClusterSettings.js';
import { CassandraGuildStore } from './CassandraGuildStore.js';
import { CassandraInstanceCounter } from './CassandraInstanceCounter.js';
import { logHostAvailability } from './cassandraHostLog.js';
import { CassandraMessageStore } from './CassandraMessageStore.js';
import { CassandraReadStateStore } from './CassandraReadStateStore.js';
import { migrateKeyspace } from './CassandraSchema.js';
import { CassandraSession } from './CassandraSession.js';
import { CassandraUserStore } from './CassandraUserStore.js';
import { CassandraWebhookStore } from './CassandraWebhookStore.js';
import type { Migration } from './migrations.js';

/** Where the cluster is and which keyspace Chorus keeps its data in. */
export interface CassandraStoresOptions {
  /** `host` or `host:port` (port 9042 when omitted). */
  readonly contactPoints: readonly string[];
  /** The data centre the driver treats as local (SimpleSnitch names it `datacenter1`). */
  readonly localDataCenter: string;
  readonly keyspace: string;
  /** SimpleStrategy replication factor for a keyspace this call creates; 1 by default. */
  readonly replicationFactor?: number;
  /** The schema to bring the keyspace to; MIGRATIONS unless a test supplies its own. */
  readonly migrations?: readonly Migration[];
  /** How long a starting node waits for another node's migration lock. */
  readonly lockWaitMs?: number;
  /** Where a Cassandra node going down or coming back is logged (not logged without one). */
  readonly log?: Logger;
}

/**
 * Reconnection to a Cassandra node that went down: 100 ms, doubling up to 2 s, then every 2 s. The
 * driver's default doubles from 1 s up to 10 minutes, so after a long outage a Chorus node would go on
 * refusing requests for minutes with Cassandra back (after a 17 s outage it took 13 s to notice).
 */
const RECONNECT_BASE_MS = 100;
const RECONNECT_MAX_MS = 2_000;

/**
 * Connects to Cassandra, creates the keyspace if missing, applies the migrations it lacks and returns
 * every storage port over one driver client (the client pools connections to all nodes and routes each
 * statement to a replica of its partition). Throws ServiceUnavailableError when no node can be reached or
 * the schema cannot be brought up to date; the client is shut down then.
 */
/** Every storage port, plus the settings the nodes of a cluster share. */
export interface CassandraStores extends Stores {
  readonly clusterSettings: CassandraClusterSettings;
  /** Attachment bytes, shared by every node (DESIGN §1). */
  readonly blobs: CassandraBlobStore;
}

export async function createCassandraStores(options: CassandraStoresOptions): Promise<CassandraStores> {
  const client = new cassandra.Client({
    contactPoints: [...options.contactPoints],
    localDataCenter: options.localDataCenter,
    // bigint columns (snowflakes, sequences) as native BigInt both ways: no Long, no precision loss.
    encoding: { useBigIntAsLong: true },
    socketOptions: { connectTimeout: 5_000, readTimeout: 12_000 },
    policies: {
      reconnection: new cassandra.policies.reconnection.ExponentialReconnectionPolicy(
        RECONNECT_BASE_MS,
        RECONNECT_MAX_MS,
        false,
      ),
    },
  });
  // Requests fail with ServiceUnavailableError meanwhile (health says so); the log says when and which node.
  const stopHostLog = options.log ? logHostAvailability(client, options.log) : () => undefined;
  const session = new CassandraSession(client);
  const close = (): Promise<void> => {
    stopHostLog();
    return session.close();
  };
  try {
    await session.connect();
    await migrateKeyspace(session, {
      keyspace: options.keyspace,
      replicationFactor: options.replicationFactor ?? 1,
      ...(options.migrations === undefined ? {} : { migrations: options.migrations }),
      ...(options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs }),
      onApplied: ({ version, name }, elapsedMs) =>
        options.log?.info('cassandra_migration_applied', { keyspace: options.keyspace, version, name, elapsedMs }),
    });
  } catch (thrown) {
    await close().catch(() => undefined);
    throw thrown;
  }
  const channels = new CassandraChannelStore(session);
  const counts = new CassandraInstanceCounter(session, options.log);
  return {
    users: new CassandraUserStore(session, counts),
    applications: new CassandraApplicationStore(session),
    applicationCommands: new CassandraApplicationCommandStore(session),
    guilds: new CassandraGuildStore(session, channels, counts),
    channels,
    messages: new CassandraMessageStore(session, counts),
    webhooks: new CassandraWebhookStore(session),
    readStates: new CassandraReadStateStore(session),
    clusterSettings: new CassandraClusterSettings(session),
    blobs: new CassandraBlobStore(session),
    counts,
    // The counter's last window goes out before the session closes (bounded: see CLOSE_WAIT_MS).
    close: async () => {
      await counts.close();
      await close();
    },
  };
}
