import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { HashRing } from '../../cluster/ring/HashRing.js';
import { dropTestKeyspaces, requireCassandra } from './cassandra.js';

/**
 * Multi-node tests on loopback: N real node PROCESSES (`node --import tsx src/main.ts`, cluster mode)
 * sharing one Cassandra keyspace and one Redis prefix of their own, with short membership and lease
 * timings so a dead or paused node is noticed within about a second. Every wait is bounded and its
 * error names what it waited for and what it saw.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REDIS_URL = process.env.CHORUS_REDIS_URL ?? 'redis://127.0.0.1:6379';
const START_COMMAND = 'bash scripts/services-up.sh (or: bash scripts/cassandra.sh start 1, and redis-server)';
/** Kept per node, for failure reports and for tests that look for an event. */
const LOG_LINES_KEPT = 5_000;

/** What GET /health answers in cluster mode. */
export interface NodeHealth {
  readonly status: string;
  readonly nodeId: string;
  readonly checks: Record<string, string>;
  readonly members: readonly string[];
  readonly ringVersion: number;
}

/** One structured log line of a node (`{t, level, event, ...}`). */
export type LogEntry = Record<string, unknown> & { readonly event: string; readonly level: string };

/** Timing the harness gives every node (environment-style; a test may override any of them). */
export const CLUSTER_TIMING = {
  CHORUS_MEMBER_HEARTBEAT_MS: '250',
  CHORUS_MEMBER_TTL_MS: '1000',
  CHORUS_LEASE_TTL_MS: '1000',
} as const;

/** Sleeps `ms` (retry backoff and settling only; never a substitute for awaiting an event). */
export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `promise`, or an error naming `what` once `timeoutMs` passed (the timer never outlives the promise). */
export function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Polls `probe` every `everyMs` until it returns a value other than undefined; the error names `what`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  { timeoutMs, everyMs = 100, seen }: { timeoutMs: number; everyMs?: number; seen?: () => string },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() >= deadline) {
      const detail = [seen?.(), lastError && `last error: ${lastError}`].filter(Boolean).join('; ');
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${detail ? ` (${detail})` : ''}`);
    }
    await pause(everyMs);
  }
}

/** One node process of a test cluster. Its address changes when it is restarted (a new member). */
export class ClusterNode {
  url = '';
  nodeId = '';
  gatewayUrl = '';
  /** Every log line of the current and earlier incarnations (bounded), parsed when it is JSON. */
  readonly logs: (LogEntry | string)[] = [];
  #child: ChildProcess | undefined;
  #exited: Promise<number | string> = Promise.resolve('not started');
  #stopped = false;
  #started = 0;

  constructor(
    readonly name: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** e.g. http://127.0.0.1:PORT/api/v10 */
  get api(): string {
    return `${this.url}/api/v10`;
  }

  get pid(): number {
    return this.#child?.pid ?? 0;
  }

  /** True while the process runs (also when it is SIGSTOPped). */
  get alive(): boolean {
    return this.#child !== undefined && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** Spawns the process and resolves once it logged `node_started` (its URL, gateway URL and id). */
  async start(timeoutMs = 60_000): Promise<void> {
    if (this.alive) throw new Error(`${this.name} is already running (pid ${this.pid})`);
    this.#started += 1;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: REPO_ROOT,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    this.#stopped = false;
    this.#exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => resolve(signal ?? code ?? 'exited'));
    });
    children.add(child);
    void this.#exited.then(() => children.delete(child));
    const entry = await new Promise<LogEntry>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`${this.name} did not log node_started within ${timeoutMs} ms; log:\n${this.logTail(30)}`));
      }, timeoutMs);
      const onLine = (line: string): void => {
        const entry = this.#record(line);
        if (typeof entry === 'string' || entry.event !== 'node_started') return;
        clearTimeout(timer);
        resolve(entry);
      };
      for (const stream of [child.stdout, child.stderr]) readLines(stream, onLine);
      void this.#exited.then((how) => {
        clearTimeout(timer);
        reject(new Error(`${this.name} exited (${String(how)}) before node_started; log:\n${this.logTail(30)}`));
      });
    });
    this.url = String(entry['url']);
    this.gatewayUrl = String(entry['gatewayUrl']);
    this.nodeId = String(entry['nodeId']);
  }

  /** Sends a signal: SIGKILL (a crash), SIGSTOP/SIGCONT (a pause), SIGTERM (graceful stop). */
  kill(signal: NodeJS.Signals): void {
    if (!this.#child || !this.alive) throw new Error(`${this.name} is not running`);
    if (signal === 'SIGSTOP') this.#stopped = true;
    if (signal === 'SIGCONT') this.#stopped = false;
    this.#child.kill(signal);
  }

  /** Resolves with the exit code or signal, or throws naming the node after `timeoutMs`. */
  exited(timeoutMs = 10_000): Promise<number | string> {
    return withTimeout(this.#exited, timeoutMs, `${this.name} (pid ${this.pid}) to exit`);
  }

  /** Graceful stop (SIGTERM; SIGKILL when it does not exit within `timeoutMs`). */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.alive) return;
    if (this.#stopped) this.kill('SIGCONT');
    this.kill('SIGTERM');
    try {
      await this.exited(timeoutMs);
    } catch {
      if (this.alive) this.#child?.kill('SIGKILL');
      await this.exited(5_000);
    }
  }

  /** Starts a new incarnation (new id and port) after the old one stopped or was killed. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** GET /health (with a timeout, so a paused node does not hang the caller). */
  async health(timeoutMs = 2_000): Promise<NodeHealth> {
    const response = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    return (await response.json()) as NodeHealth;
  }

  /** Structured log entries named `event` (of every incarnation). */
  events(event: string): LogEntry[] {
    return this.logs.filter((entry): entry is LogEntry => typeof entry !== 'string' && entry.event === event);
  }

  /** The last `lines` log lines, for failure messages. */
  logTail(lines = 40): string {
    return this.logs
      .slice(-lines)
      .map((entry) => `  [${this.name}] ${typeof entry === 'string' ? entry : JSON.stringify(entry)}`)
      .join('\n');
  }

  #record(line: string): LogEntry | string {
    let entry: LogEntry | string = line;
    if (line.startsWith('{')) {
      try {
        entry = JSON.parse(line) as LogEntry;
      } catch {
        // not JSON after all: kept as text
      }
    }
    this.logs.push(entry);
    if (this.logs.length > LOG_LINES_KEPT) this.logs.splice(0, this.logs.length - LOG_LINES_KEPT);
    return entry;
  }
}

/** A cluster of node processes started by `startCluster`. */
export interface TestCluster {
  readonly runId: string;
  readonly keyspace: string;
  readonly redisPrefix: string;
  readonly nodes: readonly ClusterNode[];
  /** Nodes whose process runs. */
  live(): ClusterNode[];
  /** Waits until every node of `nodes` reports exactly `nodes` as its members; returns the view. */
  waitForMembers(nodes?: readonly ClusterNode[], timeoutMs?: number): Promise<NodeHealth>;
  /** The node owning `key` (e.g. `channel:123`) under the view of `viewer` (default: the first live node). */
  ownerOf(key: string, viewer?: ClusterNode): Promise<ClusterNode>;
  /** Every node's log tail, for a failure report. */
  logTails(lines?: number): string;
  /** Stops every process, drops the keyspace and deletes the Redis keys of the run. */
  after(): Promise<void>;
}

/** Options of startCluster. */
export interface ClusterOptions {
  readonly nodes?: number;
  /** Extra environment for every node (e.g. CHORUS_RESUME_BUFFER). */
  readonly env?: Record<string, string>;
}

/** Fails (never skips) when Cassandra or Redis is not there, naming the command that starts them. */
export async function requireServices(): Promise<void> {
  try {
    await requireCassandra();
  } catch (error) {
    throw new Error(`${(error as Error).message}\nOr start every service the cluster tests need: ${START_COMMAND}`);
  }
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`Redis is not reachable at ${REDIS_URL} (${String(error)}). Start it first: ${START_COMMAND}`);
  } finally {
    redis.disconnect();
  }
}

/** Starts `nodes` node processes (3 by default) as one installation and waits until each sees all. */
export async function startCluster(options: ClusterOptions = {}): Promise<TestCluster> {
  await requireServices();
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const keyspace = `chat_test_${runId}`;
  const redisPrefix = `chorus_test_${runId}:`;
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
    CHORUS_CASSANDRA_KEYSPACE: keyspace,
    CHORUS_REDIS_PREFIX: redisPrefix,
    CHORUS_TOKEN_SECRET: 'cluster-test-token-secret-0123456789abcdef',
    CHORUS_PASSWORD_COST: '1024',
    CHORUS_LOG_LEVEL: 'info', // node_started (the node's URL) is an info line; requests log nothing at info
    CHORUS_GLOBAL_RATE_LIMIT: '100000',
    CHORUS_MESSAGE_RATE_LIMIT: '100000',
    ...CLUSTER_TIMING,
    ...options.env,
  });
  const nodes = Array.from({ length: options.nodes ?? 3 }, (_, index) => new ClusterNode(`node${index + 1}`, env));
  const cluster: TestCluster = {
    runId,
    keyspace,
    redisPrefix,
    nodes,
    live: () => nodes.filter((node) => node.alive),
    waitForMembers: (members = nodes.filter((node) => node.alive), timeoutMs = 20_000) =>
      waitForMembers(members, timeoutMs),
    ownerOf: async (key, viewer) => {
      const from = viewer ?? nodes.find((node) => node.alive);
      if (!from) throw new Error(`No live node to ask who owns ${key}`);
      const health = await from.health();
      // Same vnodes as the nodes (the config default, 128): the placement every node computes.
      const owner = new HashRing({ version: health.ringVersion, members: health.members }).ownerOf(key);
      const node = nodes.find((candidate) => candidate.nodeId === owner);
      if (!node) throw new Error(`${key} is owned by ${owner}, which is none of this cluster's nodes`);
      return node;
    },
    logTails: (lines = 40) => nodes.map((node) => node.logTail(lines)).join('\n'),
    after: async () => {
      await Promise.allSettled(nodes.map((node) => node.stop()));
      await dropTestKeyspaces([keyspace]);
      await deleteRedisKeys(redisPrefix);
    },
  };
  try {
    // The first node creates the keyspace; the others start meanwhile (the schema has a migration lock).
    await Promise.all(nodes.map((node) => node.start()));
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
          seen.set(node.name, typeof health === 'string' ? health : `v${health.ringVersion} [${health.members}]`);
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
async function deleteRedisKeys(prefix: string): Promise<void> {
  if (!prefix.startsWith('chorus_test_')) throw new Error(`Not a test prefix: ${prefix}`);
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

function readLines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  if (!stream) return;
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') onLine(line);
  });
}

/** Every node process this test process started; none outlives it (mocha runs with --exit). */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
