import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { withTimeLimit } from '../../src/domain/timeLimit.js';

/**
 * One Chorus node PROCESS for multi-node tests (`node --import tsx src/main.ts`, environment from the
 * caller), with its structured log kept in memory, plus the bounded waits the cluster harness uses.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
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

/** Sleeps `ms` (retry backoff and settling only; never a substitute for awaiting an event). */
export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `promise`, or an error naming `what` once `timeoutMs` passed (the timer never outlives the promise). */
export function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  return withTimeLimit(promise, timeoutMs, () => new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`));
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
    // BENCH_NODE_ENTRY=compiled (the cluster bench): the compiled server as `npm start` runs it; tests keep tsx.
    const entryArgs =
      this.env['BENCH_NODE_ENTRY'] === 'compiled'
        ? ['--enable-source-maps', 'dist/src/main.js']
        : ['--import', 'tsx', 'src/main.ts'];
    // BENCH_CPU_PROF=dir: a V8 CPU profile per process, written on exit (scripts/cpuProfileSummary.ts reads them).
    const profileDir = this.env['BENCH_CPU_PROF'];
    const args = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, ...entryArgs] : entryArgs;
    const child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    this.#stopped = false;
    this.#exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        resolve(signal ?? code ?? 'exited');
      });
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
