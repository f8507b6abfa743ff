import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { pause, withTimeout, type ClusterNode } from '../support/clusterHarness.js';
import { request, retryable, type Acked, type MessageJson } from '../cluster/nodes/clusterFixtures.js';

/**
 * Load for fault tests: clients that keep posting messages (with nonces, retrying failures on the next
 * node, as careful Discord clients do) and keep a record of EVERY attempt with its timing, so a test
 * can say how requests failed while a service was down, and for how long.
 */

/** An HTTP request that got no answer within this long counts as a hang (status 0 in its Attempt). */
export const REQUEST_TIMEOUT_MS = 15_000;

/** One HTTP attempt of a client: where it went, what came back and when. */
export interface Attempt {
  readonly client: string;
  readonly node: string;
  readonly content: string;
  /** HTTP status; 0 = network error or no answer within REQUEST_TIMEOUT_MS. */
  readonly status: number;
  readonly body: string;
  /** performance.now() when it was sent, and how long the answer took. */
  readonly sentAt: number;
  readonly ms: number;
}

/** Options of a LoadClient. */
export interface LoadOptions {
  /** Nodes to post through; attempt k of a message goes to nodes()[(start + k) % length]. */
  readonly nodes: () => readonly ClusterNode[];
  readonly start?: number;
  /** A real client's delay before a retry (not a synchronisation sleep). */
  readonly backoffMs?: number;
}

/**
 * A client posting `<name> #<n>` one message at a time, the next only once the last was acknowledged,
 * retrying a failed one (network error or 5xx) with the same nonce until it is acknowledged or the
 * client is stopped. Any other status ends the client with an error (a 4xx is a bug, not a fault).
 */
export class LoadClient {
  readonly acked: Acked[] = [];
  readonly attempts: Attempt[] = [];
  /** Every content this client sent at least once (acknowledged or not). */
  readonly sent: string[] = [];
  #stopping = false;
  #listeners = new Set<() => void>();
  done: Promise<void> = Promise.resolve();

  constructor(
    readonly name: string,
    private readonly token: string,
    private readonly channelId: string,
    private readonly options: LoadOptions,
  ) {}

  /** Starts posting; `done` settles once stopped, or rejects with the first unretryable answer. */
  start(): void {
    this.done = (async () => {
      for (let n = 1; !this.#stopping; n += 1) {
        const acked = await this.#post(`${this.name}-${n}`, `${this.name} #${n}`);
        if (acked) this.acked.push(acked);
        this.#notify();
      }
    })();
  }

  /** Stops after the message in flight (given up on if it is still failing); throws when that takes over 30 s. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await withTimeout(this.done, 30_000, `${this.name} to stop posting`);
  }

  /** Attempts sent in [from, to) (performance.now() times). */
  attemptsBetween(from: number, to = Number.POSITIVE_INFINITY): Attempt[] {
    return this.attempts.filter((attempt) => attempt.sentAt >= from && attempt.sentAt < to);
  }

  /** Resolves once `predicate` holds (checked after every attempt), or throws after `timeoutMs`. */
  waitUntil(what: string, predicate: (client: LoadClient) => boolean, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const finish = (error?: Error): void => {
        clearTimeout(timer);
        this.#listeners.delete(check);
        if (error) reject(error);
        else resolve();
      };
      const check = (): void => {
        if (predicate(this)) finish();
      };
      const timer = setTimeout(() => {
        const last = this.attempts.at(-1);
        const lastText = last ? `, last attempt: ${last.status} ${last.body.slice(0, 160)}` : '';
        const summary = `${this.acked.length} acknowledged, ${this.attempts.length} attempts${lastText}`;
        finish(new Error(`${this.name}: ${what} did not happen within ${timeoutMs} ms (${summary})`));
      }, timeoutMs);
      this.#listeners.add(check);
      void this.done.catch((error: unknown) => {
        finish(error instanceof Error ? error : new Error(String(error)));
      });
      check();
    });
  }

  async #post(nonce: string, content: string): Promise<Acked | undefined> {
    this.sent.push(content);
    for (let attempt = 0; ; attempt += 1) {
      const nodes = this.options.nodes();
      const node = nodes[((this.options.start ?? 0) + attempt) % nodes.length] as ClusterNode;
      const sentAt = performance.now();
      const outcome = await request(node.api, 'POST', `/channels/${this.channelId}/messages`, {
        token: this.token,
        body: { content, nonce, enforce_nonce: true },
        timeoutMs: REQUEST_TIMEOUT_MS,
      });
      const ackedAt = performance.now();
      const ms = Math.round(ackedAt - sentAt);
      this.attempts.push({ client: this.name, node: node.name, content, ...outcome, sentAt, ms });
      if (outcome.status === 200) {
        const message = JSON.parse(outcome.body) as MessageJson;
        assert.equal(message.content, content, `the reply to nonce ${nonce} carries its content`);
        return { client: this.name, nonce, content, id: message.id, sentAt, ackedAt, attempts: attempt + 1 };
      }
      if (!retryable(outcome)) {
        throw new Error(`POST ${content} via ${node.name} answered ${outcome.status}: ${outcome.body}`);
      }
      if (this.#stopping) return undefined;
      this.#notify();
      await pause(this.options.backoffMs ?? 200);
    }
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}

/** True for a Discord-shaped error body: a JSON object with a numeric `code` and a string `message`. */
export function isDiscordError(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { code?: unknown; message?: unknown };
    return typeof parsed.code === 'number' && typeof parsed.message === 'string';
  } catch {
    return false;
  }
}

/** `node2 c1 #4: 503 {"code":0,...} in 12 ms` */
export function describeAttempt(attempt: Attempt): string {
  return `${attempt.node} ${attempt.content}: ${attempt.status} ${attempt.body.slice(0, 120)} in ${attempt.ms} ms`;
}

/**
 * Asserts that every failed attempt failed cleanly: 503 with a Discord-shaped body, answered within
 * `boundMs` (never a 500, a network error or a request left hanging).
 */
export function assertFailedCleanly(attempts: readonly Attempt[], boundMs: number): void {
  const unclean = attempts.filter(
    (attempt) =>
      attempt.status !== 200 && (attempt.status !== 503 || !isDiscordError(attempt.body) || attempt.ms > boundMs),
  );
  assert.deepEqual(
    unclean.map(describeAttempt),
    [],
    `every failed request answers 503 with a Discord-shaped body within ${boundMs} ms`,
  );
}

/** The stored messages no client sent (a retry must never become a second message). */
export function strangers(stored: readonly MessageJson[], clients: readonly LoadClient[]): string[] {
  const sent = new Set(clients.flatMap((client) => client.sent));
  return stored.filter((message) => !sent.has(message.content)).map((message) => message.content);
}

/** Summary numbers of the failed attempts in `attempts`, for the test's report line. */
export function failureWindow(attempts: readonly Attempt[]): { failed: number; firstAt: number; maxMs: number } {
  const failed = attempts.filter((attempt) => attempt.status !== 200);
  return {
    failed: failed.length,
    firstAt: Math.min(...failed.map((attempt) => attempt.sentAt)),
    maxMs: Math.max(0, ...failed.map((attempt) => attempt.ms)),
  };
}

/**
 * How long a failed request may take to answer: the edge's ask deadline (CHORUS_ASK_DEADLINE_MS,
 * 5 s by default) plus 2 s of slack for a 2-core machine that is also restarting a database.
 */
export const FAILURE_BOUND_MS = 7_000;

/** ms from the first failed attempt in `attempts` to the first acknowledgment after it (the outage clients saw). */
export function clientOutageMs(clients: readonly LoadClient[], from: number): number {
  const attempts = clients.flatMap((client) => client.attemptsBetween(from));
  const firstFailure = Math.min(...attempts.filter((attempt) => attempt.status !== 200).map((a) => a.sentAt));
  const firstAckAfter = Math.min(
    ...clients.flatMap((client) => client.acked.filter((m) => m.sentAt > firstFailure).map((m) => m.ackedAt)),
  );
  return Math.round(firstAckAfter - firstFailure);
}
