import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { pause, type ClusterNode } from '../../support/clusterHarness.js';
import { PendingConditions } from '../../support/PendingConditions.js';

/** Bits of Identify `intents` the cluster tests use. */
export const INTENTS = { GUILDS: 1 << 0, GUILD_MESSAGES: 1 << 9, MESSAGE_CONTENT: 1 << 15 } as const;

/** A stored or returned message, as much of it as the tests read. */
export interface MessageJson {
  readonly id: string;
  readonly content: string;
  readonly nonce?: string | number;
  readonly channel_id: string;
  readonly author: { readonly id: string };
}

/** The outcome of one HTTP request: a status and body, or the network error that replaced them. */
export interface Outcome {
  readonly status: number;
  readonly body: string;
}

/** One request that cannot hang: a network error or timeout comes back as status 0 with its message. */
export async function request(
  base: string,
  method: string,
  path: string,
  { token, body, timeoutMs = 15_000 }: { token?: string; body?: unknown; timeoutMs?: number | undefined } = {},
): Promise<Outcome> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      signal: AbortSignal.timeout(timeoutMs),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { status: 0, body: `network: ${String(error)}${cause ? ` (${cause.code ?? cause.message ?? ''})` : ''}` };
  }
}

/** True for what a client retries: a network error, a timeout or a 5xx. */
export const retryable = (outcome: Outcome): boolean => outcome.status === 0 || outcome.status >= 500;

/** One message a client had acknowledged (2xx), with when it was sent and acknowledged. */
export interface Acked {
  readonly client: string;
  readonly nonce: string;
  readonly content: string;
  readonly id: string;
  /** performance.now() when the attempt that got the 2xx was sent, and when its answer came. */
  readonly sentAt: number;
  readonly ackedAt: number;
  readonly attempts: number;
}

/** Options of postWithRetry. */
export interface RetryOptions {
  /** Nodes to post through; attempt k goes to nodes()[(start + k) % length] (re-read every attempt). */
  readonly nodes: () => readonly ClusterNode[];
  readonly start?: number;
  readonly attempts?: number;
  /** Client backoff between attempts (a real client's retry delay, not a synchronisation sleep). */
  readonly backoffMs?: number;
  /** Called with every failed attempt (for the report). */
  readonly onFailure?: (outcome: Outcome, node: ClusterNode) => void;
}

/** One POST attempt: where it went, what came back and when, and the acknowledged message on a 200. */
export interface PostAttempt {
  readonly node: ClusterNode;
  readonly outcome: Outcome;
  /** performance.now() when it was sent, and when its answer (or network error) came. */
  readonly sentAt: number;
  readonly answeredAt: number;
  readonly acked?: Acked;
}

/**
 * Attempt `attempt` (from 0) of POST /channels/{id}/messages as a careful client sends it: with the
 * post's `nonce` and `enforce_nonce`, to the next node in turn. A 200 comes back as `acked`, a network
 * error or 5xx for the caller to retry with the same nonce; any other status fails the test at once.
 */
export async function attemptPost(
  token: string,
  channelId: string,
  post: Pick<Acked, 'client' | 'nonce' | 'content'>,
  attempt: number,
  options: Pick<RetryOptions, 'nodes' | 'start'> & { readonly timeoutMs?: number },
): Promise<PostAttempt> {
  const { client, nonce, content } = post;
  const nodes = options.nodes();
  const node = nodes[((options.start ?? 0) + attempt) % nodes.length] as ClusterNode;
  const sentAt = performance.now();
  const outcome = await request(node.api, 'POST', `/channels/${channelId}/messages`, {
    token,
    body: { content, nonce, enforce_nonce: true },
    timeoutMs: options.timeoutMs,
  });
  const answeredAt = performance.now();
  if (outcome.status === 200) {
    const message = JSON.parse(outcome.body) as MessageJson;
    assert.equal(message.content, content, `the reply to nonce ${nonce} carries its content`);
    const acked = { client, nonce, content, id: message.id, sentAt, ackedAt: answeredAt, attempts: attempt + 1 };
    return { node, outcome, sentAt, answeredAt, acked };
  }
  if (!retryable(outcome)) {
    throw new Error(`POST ${content} via ${node.name} answered ${outcome.status}: ${outcome.body}`);
  }
  return { node, outcome, sentAt, answeredAt };
}

/**
 * POST /channels/{id}/messages as a careful client does (attemptPost), retried with the same nonce
 * after a network error or a 5xx, on the next node, up to `attempts` times.
 */
export async function postWithRetry(
  token: string,
  channelId: string,
  client: string,
  nonce: string,
  content: string,
  options: RetryOptions,
): Promise<Acked> {
  const attempts = options.attempts ?? 60;
  const failures: string[] = [];
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const { node, outcome, acked } = await attemptPost(token, channelId, { client, nonce, content }, attempt, options);
    if (acked) return acked;
    options.onFailure?.(outcome, node);
    failures.push(`${node.name}: ${outcome.status} ${outcome.body.slice(0, 160)}`);
    await pause(options.backoffMs ?? 100);
  }
  throw new Error(`POST ${content} (nonce ${nonce}) failed ${attempts} times:\n  ${failures.slice(-6).join('\n  ')}`);
}

/**
 * A client posting `content` = `<client> #<n>` one message at a time (the next only after the last
 * was acknowledged), until `stop()` and at least `minimum` messages. `acked` is in acknowledgment order.
 */
export class Poster {
  readonly acked: Acked[] = [];
  readonly failures: Outcome[] = [];
  /** Set by stop(); a subclass's post() may give up on a failing message once it is. */
  protected stopping = false;
  readonly #conditions = new PendingConditions();
  done: Promise<void> = Promise.resolve();

  constructor(
    readonly name: string,
    protected readonly token: string,
    protected readonly channelId: string,
    protected readonly options: Omit<RetryOptions, 'onFailure'>,
  ) {}

  /** Starts posting; `done` settles when it stopped (or rejects with the first unretryable failure). */
  start(minimum = 1): void {
    this.done = (async () => {
      for (let n = 1; !this.stopping || this.acked.length < minimum; n += 1) {
        const acked = await this.post(`${this.name}-${n}`, `${this.name} #${n}`);
        if (acked) this.acked.push(acked);
        this.notify();
      }
    })();
  }

  /** Resolves once `predicate` holds for this poster (checked after every notify()), or throws after `timeoutMs`. */
  waitUntil(what: string, predicate: (poster: this) => boolean, timeoutMs: number): Promise<void> {
    const timedOut = (): Error => {
      const last = this.failures.at(-1);
      return new Error(
        `${this.name}: ${what} did not happen within ${timeoutMs} ms (${this.acked.length} acknowledged, ` +
          `${this.failures.length} failed attempts${last ? `, last: ${last.status} ${last.body.slice(0, 160)}` : ''})`,
      );
    };
    return this.#conditions.wait(() => predicate(this), timeoutMs, timedOut, this.done);
  }

  /** Asks the poster to stop after the message in flight (and `minimum` messages in all). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.done;
  }

  /** Posts one message until it is acknowledged (postWithRetry); undefined where a subclass gives up on it. */
  protected post(nonce: string, content: string): Promise<Acked | undefined> {
    return postWithRetry(this.token, this.channelId, this.name, nonce, content, {
      ...this.options,
      onFailure: (outcome) => this.failures.push(outcome),
    });
  }

  /** Checks the pending waitUntil predicates again. */
  protected notify(): void {
    this.#conditions.check();
  }
}

/** Every message of a channel, oldest first (pages of 100 read newest first with `before`). */
export async function readAllMessages(node: ClusterNode, token: string, channelId: string): Promise<MessageJson[]> {
  const all: MessageJson[] = [];
  let before = '';
  for (let page = 0; page < 100; page += 1) {
    const query = `limit=100${before ? `&before=${before}` : ''}`;
    const outcome = await request(node.api, 'GET', `/channels/${channelId}/messages?${query}`, { token });
    assert.equal(outcome.status, 200, `GET messages via ${node.name}: ${outcome.body}`);
    const batch = JSON.parse(outcome.body) as MessageJson[];
    all.push(...batch);
    if (batch.length < 100) break;
    before = batch.reduce((low, message) => (BigInt(message.id) < BigInt(low) ? message.id : low), batch[0]!.id);
  }
  return all.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0));
}

/**
 * Checks what a client must be able to rely on: every acknowledged message is stored under the id it
 * was acknowledged with and with its content, exactly once (no other stored message has its content),
 * and each client's messages are stored in the order they were acknowledged.
 */
export function assertAllAckedOnceInOrder(stored: readonly MessageJson[], acked: readonly Acked[]): void {
  const byContent = new Map<string, MessageJson[]>();
  for (const message of stored) byContent.set(message.content, [...(byContent.get(message.content) ?? []), message]);
  const duplicates = [...byContent].filter(([, copies]) => copies.length > 1);
  assert.deepEqual(
    duplicates.map(([content, copies]) => `${content} ×${copies.length} (${copies.map((copy) => copy.id).join(', ')})`),
    [],
    'no message is stored twice',
  );
  const storedIds = new Set(stored.map((message) => message.id));
  const missing = acked.filter((message) => !storedIds.has(message.id));
  assert.deepEqual(
    missing.map((message) => `${message.content} (${message.id})`),
    [],
    'every acknowledged message is stored under the id it was acknowledged with',
  );
  for (const message of acked) assert.equal(byContent.get(message.content)?.[0]?.id, message.id, message.content);
  const position = new Map(stored.map((message, index) => [message.id, index]));
  for (const client of new Set(acked.map((message) => message.client))) {
    const order = acked.filter((message) => message.client === client).map((message) => position.get(message.id) ?? -1);
    assert.deepEqual(
      order,
      [...order].sort((a, b) => a - b),
      `${client}'s messages are stored in the order they were acknowledged`,
    );
  }
}
