import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { HashRing } from '../../cluster/ring/HashRing.js';
import { dropTestKeyspaces, requireCassandra } from './cassandra.js';
import { ClusterNode, until, type NodeHealth } from './clusterNode.js';

export { ClusterNode, pause, until, withTimeout, type LogEntry, type NodeHealth } from './clusterNode.js';

/**
 * Multi-node tests on loopback: N real node PROCESSES (cluster mode) sharing one Cassandra keyspace
 * and one Redis prefix of their own, with short membership and lease timings so a dead or paused node
 * is noticed within about a second. Every wait is bounded and its error names what it waited for.
 */

const REDIS_URL = process.env.CHORUS_REDIS_URL ?? 'redis://127.0.0.1:6379';
const START_COMMAND = 'bash scripts/services-up.sh (or: bash scripts/cassandra.sh start 1, and redis-server)';

/** Timing the harness gives every node (environment-style; a test may override any of them). */
export const CLUSTER_TIMING = {
  CHORUS_MEMBER_HEARTBEAT_MS: '250',
  CHORUS_MEMBER_TTL_MS: '1000',
  CHORUS_LEASE_TTL_MS: '1000',
} as const;

/** Options of startCluster. */
export interface ClusterOptions {
  readonly nodes?: number;
  /** Extra environment for every node (e.g. CHORUS_RESUME_BUFFER). */
  readonly env?: Record<string, string>;
  /**
   * How long each node may take to log node_started. A keyspace created on three Cassandra nodes just
   * formed takes minutes on a slow machine (every DDL waits for schema agreement, every migration step
   * is a Paxos write), far longer than on the one-node default.
   */
  readonly startTimeoutMs?: number;
}

/** Fails (never skips) when Cassandra or Redis is not there, naming the command that starts them. */
export async function requireServices(): Promise<void> {
  try {
    await requireCassandra();
  } catch (error) {
    const message = `${(error as Error).message}\nOr start every service the cluster tests need: ${START_COMMAND}`;
    throw new Error(message, { cause: error });
  }
  const redis = createClient({ url: REDIS_URL, RESP: 2, socket: { reconnectStrategy: false } });
  let cause = '';
  redis.on('error', (error: Error) => {
    cause = error.message; // reported below, once
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    const message = `Redis is not reachable at ${REDIS_URL} (${cause || String(error)}). Start it first: ${START_COMMAND}`;
    throw new Error(message, { cause: error });
  } finally {
    redis.destroy();
  }
}

/** A cluster of node processes sharing a keyspace `chat_test_<runId>` and a Redis prefix `chorus_test_<runId>:`. */
export class TestCluster {
  readonly runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  readonly keyspace = `chat_test_${this.runId}`;
  readonly redisPrefix = `chorus_test_${this.runId}:`;
  readonly nodes: readonly ClusterNode[];

  constructor(options: ClusterOptions) {
    const env: NodeJS.ProcessEnv = {};
    // Only what the test decides: a CHORUS_* variable of the caller's shell must not leak into the nodes.
    for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('CHORUS_')) env[name] = value;
    Object.assign(env, {
      CHORUS_MODE: 'cluster',
      PORT: '0',
      CHORUS_HOST: '127.0.0.1',
      CHORUS_NODE_HOST: '127.0.0.1',
      CHORUS_GRPC_PORT: '0',
      CHORUS_CASSANDRA_CONTACT_POINTS: process.env.CHORUS_CASSANDRA_CONTACT_POINTS ?? '127.0.0.1',
      CHORUS_REDIS_URL: REDIS_URL,
      CHORUS_CASSANDRA_KEYSPACE: this.keyspace,
      CHORUS_REDIS_PREFIX: this.redisPrefix,
      CHORUS_TOKEN_SECRET: 'cluster-test-token-secret-0123456789abcdef',
      CHORUS_PASSWORD_COST: '1024',
      CHORUS_LOG_LEVEL: 'info', // node_started (the node's URL) is an info line; requests log nothing at info
      CHORUS_GLOBAL_RATE_LIMIT: '100000',
      CHORUS_MESSAGE_RATE_LIMIT: '100000',
      CHORUS_IDENTIFY_WINDOW_MS: '0', // tests identify one user many times a second
      ...CLUSTER_TIMING,
      ...options.env,
    });
    this.nodes = Array.from({ length: options.nodes ?? 3 }, (_, index) => new ClusterNode(`node${index + 1}`, env));
  }

  /** Nodes whose process runs. */
  live(): ClusterNode[] {
    return this.nodes.filter((node) => node.alive);
  }

  /** Waits until every node of `members` (default: the live ones) lists exactly `members`, under one version. */
  waitForMembers(members: readonly ClusterNode[] = this.live(), timeoutMs = 20_000): Promise<NodeHealth> {
    return waitForMembers(members, timeoutMs);
  }

  /**
   * The node owning the ring key `key` under the view of `viewer` (default: the first live node), pins
   * aside. A guild channel runs on the owner of `guild:<its guild id>`; only a DM's is `channel:<id>`.
   */
  async ownerOf(key: string, viewer: ClusterNode | undefined = this.live()[0]): Promise<ClusterNode> {
    if (!viewer) throw new Error(`No live node to ask who owns ${key}`);
    const health = await viewer.health();
    // Same vnodes as the nodes (the config default, 128): the placement every node computes.
    const owner = new HashRing({ version: health.ringVersion, members: health.members }).ownerOf(key);
    const node = this.nodes.find((candidate) => candidate.nodeId === owner);
    if (!node) throw new Error(`${key} is owned by ${owner}, which is none of this cluster's nodes`);
    return node;
  }

  /** Every node's log tail, for a failure report. */
  logTails(lines = 40): string {
    return this.nodes.map((node) => node.logTail(lines)).join('\n');
  }

  /** Runs `work` (a hook's scenario); when it throws, prints every node's log tail first. */
  async reporting<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      console.log(`node logs:\n${this.logTails(30)}`);
      throw error;
    }
  }

  /** Stops every process, drops the keyspace and deletes the Redis keys of the run. */
  async after(): Promise<void> {
    await Promise.allSettled(this.nodes.map((node) => node.stop()));
    await dropTestKeyspaces([this.keyspace]);
    await deleteRedisKeys(this.redisPrefix);
  }
}

/** Starts `nodes` node processes (3 by default) as one installation and waits until each sees all. */
export async function startCluster(options: ClusterOptions = {}): Promise<TestCluster> {
  await requireServices();
  const cluster = new TestCluster(options);
  try {
    // The first node creates the keyspace; the others start meanwhile (the schema has a migration lock).
    await Promise.all(cluster.nodes.map((node) => node.start(options.startTimeoutMs)));
    await cluster.waitForMembers();
  } catch (error) {
    await cluster.after().catch(() => undefined);
    throw error;
  }
  return cluster;
}

/** Waits until every node in `members` answers /health with exactly their ids as members. */
async function waitForMembers(members: readonly ClusterNode[], timeoutMs: number): Promise<NodeHealth> {
  const expected = members.map((node) => node.nodeId).sort();
  const seen = new Map<string, string>();
  return until(
    `every node of ${members.map((node) => node.name).join(', ')} to list exactly [${expected.join(', ')}]`,
    async () => {
      const reports = await Promise.all(
        members.map(async (node) => {
          const health = await node.health().catch((error: unknown) => String(error));
          const view = typeof health === 'string' ? health : `v${health.ringVersion} [${health.members.join(', ')}]`;
          seen.set(node.name, view);
          return health;
        }),
      );
      const agreed = reports.every(
        (health) => typeof health !== 'string' && [...health.members].sort().join() === expected.join(),
      );
      const versions = new Set(reports.map((health) => (typeof health === 'string' ? -1 : health.ringVersion)));
      return agreed && versions.size === 1 ? (reports[0] as NodeHealth) : undefined;
    },
    { timeoutMs, seen: () => [...seen].map(([name, view]) => `${name}: ${view}`).join('; ') },
  );
}

/** Deletes every Redis key under `prefix` (only test prefixes). */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  if (!prefix.startsWith('chorus_test_')) throw new Error(`Not a test prefix: ${prefix}`);
  const redis = createClient({ url: REDIS_URL, RESP: 2 });
  redis.on('error', () => undefined); // a failing command fails the cleanup; no listener would end the process
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const reply = await redis.scan(cursor, { MATCH: `${prefix}*`, COUNT: 1000 });
      if (reply.keys.length > 0) await redis.del(reply.keys);
      cursor = reply.cursor;
    } while (cursor !== '0');
  } finally {
    redis.destroy();
  }
}
