import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { until, type ClusterNode, type NodeHealth } from '../support/clusterHarness.js';

/**
 * The services a fault test breaks on purpose: the project's Cassandra nodes (through
 * scripts/cassandra.sh, the same commands an operator runs) and a private redis-server, so the shared
 * Redis on 6379 is never touched. Every wait is bounded and its error names what it waited for.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every process a fault test spawned; none outlives the test process (mocha runs with --exit). */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * Runs `bash scripts/cassandra.sh <args>` and resolves with how long it took (ms), echoing its log
 * lines. Rejects with its output when it fails or has not finished within `timeoutMs` (then it is
 * killed; a node it launched keeps running, and the script's next call takes it over).
 */
export function cassandraScript(args: readonly string[], timeoutMs: number): Promise<number> {
  const startedAt = performance.now();
  const child = spawn('bash', ['scripts/cassandra.sh', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so a timeout can stop the script and its children
  });
  children.add(child);
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (output += chunk));
  }
  const what = `bash scripts/cassandra.sh ${args.join(' ')}`;
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      reject(new Error(`${what} did not finish within ${timeoutMs} ms; output:\n${output}`));
    }, timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      const ms = Math.round(performance.now() - startedAt);
      if (code !== 0) {
        reject(new Error(`${what} failed (${String(signal ?? code)}) after ${ms} ms; output:\n${output}`));
        return;
      }
      for (const line of output.trim().split('\n')) console.log(`      ${line}`);
      resolve(ms);
    });
  });
}

/** `bash scripts/cassandra.sh status`: which of this checkout's nodes run and answer CQL. */
export async function cassandraNodesRunning(): Promise<{ running: number[]; report: string }> {
  const child = spawn('bash', ['scripts/cassandra.sh', 'status'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let report = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (report += chunk));
  }
  await new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  const running = [...report.matchAll(/^node (\d) \(\S+\): running .*, ready/gm)].map((match) => Number(match[1]));
  return { running, report: report.trim() };
}

/** Fails (never skips) unless exactly `nodes` (e.g. [1] or [1, 2, 3]) of this checkout's Cassandra nodes run. */
export async function requireCassandraNodes(nodes: readonly number[], startCommand: string): Promise<void> {
  const { running, report } = await cassandraNodesRunning();
  if (running.join() !== nodes.join()) {
    throw new Error(
      `This test restarts Cassandra with scripts/cassandra.sh, so it needs node(s) ${nodes.join(', ')} of ` +
        `this checkout running and nothing else; status says:\n${report}\nStart them with: ${startCommand}`,
    );
  }
}

/** A free TCP port on 127.0.0.1 (the kernel's choice; released before the caller binds it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port assigned'));
      });
    });
  });
}

/** A redis-server of the test's own on a free port, without persistence: a restart comes back empty. */
export class PrivateRedis {
  port = 0;
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();
  #log = '';

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get alive(): boolean {
    return this.#child !== undefined && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** Starts the server (on the same port as before, after a kill) and resolves once it accepts connections. */
  async start(timeoutMs = 10_000): Promise<void> {
    if (this.alive) throw new Error(`redis-server on ${this.port} is already running`);
    if (this.port === 0) this.port = await freePort();
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    const child = spawn('redis-server', [...args, '--daemonize', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#child = child;
    children.add(child);
    this.#exited = new Promise((resolve) => {
      child.once('exit', () => {
        children.delete(child);
        resolve();
      });
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`redis-server on ${this.port} not ready within ${timeoutMs} ms:\n${this.#log}`));
      }, timeoutMs);
      const onData = (chunk: string): void => {
        this.#log = (this.#log + chunk).slice(-4_000);
        if (!this.#log.includes('Ready to accept connections')) return;
        clearTimeout(timer);
        resolve();
      };
      for (const stream of [child.stdout, child.stderr]) {
        stream.setEncoding('utf8');
        stream.on('data', onData);
      }
      void this.#exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`redis-server on ${this.port} exited during start:\n${this.#log}`));
      });
    });
    this.#log = '';
  }

  /** SIGKILL (a crash: connections drop at once, and everything it held is gone). */
  async kill(): Promise<void> {
    if (!this.alive) return;
    this.#child?.kill('SIGKILL');
    await this.#exited;
  }
}

/** One GET /health: the HTTP status and the report, or status 0 with the error when it did not answer. */
export interface HealthSample {
  readonly node: string;
  readonly status: number;
  readonly report?: NodeHealth;
  readonly error?: string;
  readonly ms: number;
}

/** GET /health of `node`, bounded by `timeoutMs` (a health endpoint that hangs is a failure of its own). */
export async function healthOf(node: ClusterNode, timeoutMs = 5_000): Promise<HealthSample> {
  const startedAt = performance.now();
  const ms = (): number => Math.round(performance.now() - startedAt);
  try {
    const response = await fetch(`${node.url}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    return { node: node.name, status: response.status, report: (await response.json()) as NodeHealth, ms: ms() };
  } catch (error) {
    return { node: node.name, status: 0, error: String(error), ms: ms() };
  }
}

/** Polls every node's /health until `accept` holds for all of them at once; resolves with those samples. */
function waitForHealth(
  nodes: readonly ClusterNode[],
  what: string,
  accept: (sample: HealthSample) => boolean,
  timeoutMs: number,
): Promise<HealthSample[]> {
  let last: HealthSample[] = [];
  return until(
    `GET /health of ${nodes.map((node) => node.name).join(', ')} to show ${what}`,
    async () => {
      last = await Promise.all(nodes.map((node) => healthOf(node)));
      return last.every(accept) ? last : undefined;
    },
    { timeoutMs, everyMs: 200, seen: () => last.map(describeHealth).join('; ') },
  );
}

/** Polls until every node answers GET /health 200; resolves with those samples. */
export function waitForHealthy(nodes: readonly ClusterNode[], timeoutMs: number): Promise<HealthSample[]> {
  return waitForHealth(nodes, '200', (sample) => sample.status === 200, timeoutMs);
}

/** Polls until every node answers GET /health 503 with `check` (e.g. 'redis') not ok; resolves with those samples. */
export function waitForUnhealthy(
  nodes: readonly ClusterNode[],
  check: string,
  timeoutMs: number,
): Promise<HealthSample[]> {
  const accept = (sample: HealthSample): boolean => sample.status === 503 && sample.report?.checks[check] !== 'ok';
  return waitForHealth(nodes, `503 naming ${check}`, accept, timeoutMs);
}

/** One sample for a message: `node2: 503 redis=unreachable cassandra=ok (12 ms)`. */
export function describeHealth(sample: HealthSample): string {
  const checks = Object.entries(sample.report?.checks ?? {})
    .map(([name, check]) => `${name}=${check}`)
    .join(' ');
  return `${sample.node}: ${sample.status} ${sample.error ?? checks} (${sample.ms} ms)`;
}

/**
 * Asserts that every node reported an outage while it lasted: GET /health answered (the `downHealth`
 * samples) within `healthBoundMs`, and the node logged `event`.
 */
export function assertOutageReported(
  downHealth: readonly HealthSample[],
  healthBoundMs: number,
  nodes: readonly ClusterNode[],
  event: string,
): void {
  for (const sample of downHealth) assert.ok(sample.ms < healthBoundMs, `health answered in ${sample.ms} ms`);
  for (const node of nodes) assert.ok(node.events(event).length > 0, `${node.name} logs ${event}`);
}
