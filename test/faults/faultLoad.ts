import assert from 'node:assert/strict';
import { after, afterEach } from 'mocha';
import { pause, withTimeout, type ClusterNode, type TestCluster } from '../support/clusterHarness.js';
import { registerUser, type TestUser } from '../support/testServer.js';
import { createGuild, joinGuild, type TestGuild } from '../integration/gateway/gatewayFixtures.js';
import {
  assertAllAckedOnceInOrder,
  attemptPost,
  Poster,
  readAllMessages,
  type Acked,
  type MessageJson,
} from '../cluster/nodes/clusterFixtures.js';

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

/**
 * A client posting `<name> #<n>` one message at a time, the next only once the last was acknowledged,
 * retrying a failed one (network error or 5xx) with the same nonce on the next node until it is
 * acknowledged or the client is stopped, and recording every attempt. Any other status ends the client
 * with an error (a 4xx is a bug, not a fault). Its options' `attempts` is not used: it never gives up
 * while running.
 */
export class LoadClient extends Poster {
  readonly attempts: Attempt[] = [];
  /** Every content this client sent at least once (acknowledged or not). */
  readonly sent: string[] = [];

  /** Starts posting; `done` settles once stopped, or rejects with the first unretryable answer. */
  override start(): void {
    super.start(0); // no minimum: once stopped, it ends after the message in flight
  }

  /** Stops after the message in flight (given up on if it is still failing); throws when that takes over 30 s. */
  override async stop(): Promise<void> {
    await withTimeout(super.stop(), 30_000, `${this.name} to stop posting`);
  }

  /** Attempts sent in [from, to) (performance.now() times). */
  attemptsBetween(from: number, to = Number.POSITIVE_INFINITY): Attempt[] {
    return this.attempts.filter((attempt) => attempt.sentAt >= from && attempt.sentAt < to);
  }

  protected override async post(nonce: string, content: string): Promise<Acked | undefined> {
    this.sent.push(content);
    const post = { client: this.name, nonce, content };
    const options = { ...this.options, timeoutMs: REQUEST_TIMEOUT_MS };
    for (let attempt = 0; ; attempt += 1) {
      const tried = await attemptPost(this.token, this.channelId, post, attempt, options);
      const { node, outcome, sentAt } = tried;
      const ms = Math.round(tried.answeredAt - sentAt);
      this.attempts.push({ client: this.name, node: node.name, content, ...outcome, sentAt, ms });
      if (tried.acked) return tried.acked;
      this.failures.push(outcome);
      if (this.stopping) return undefined;
      this.notify(); // waitUntil predicates may count failed attempts
      await pause(this.options.backoffMs ?? 200);
    }
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

/**
 * How long a failed request may take to answer: the edge's ask deadline (CHORUS_ASK_DEADLINE_MS,
 * 5 s by default) plus 2 s of slack for a 2-core machine that is also restarting a database.
 */
export const FAILURE_BOUND_MS = 7_000;

/**
 * The load of a fault suite: a guild whose owner (registered on nodes[0]) created it through nodes[1],
 * joined by a poster registered on each further node, and a LoadClient `c1`, `c2`, … per member (the
 * owner first) posting to its text channel, each beginning at the next node. Made at describe time and
 * started in `before`, so the suite's after hook stops whichever clients did start (cleanUpFaultSuite).
 */
export class GuildUnderLoad {
  clients: LoadClient[] = [];
  #started: { readonly owner: TestUser; readonly guild: TestGuild } | undefined;

  /** Sets the guild up and starts the clients; resolves once each had 3 messages acknowledged (`3 messages <warmUp>`). */
  async start(nodes: readonly ClusterNode[], guildName: string, warmUp: string): Promise<void> {
    const [entry, creator] = nodes as [ClusterNode, ClusterNode, ...ClusterNode[]];
    const owner = await registerUser(entry.api, 'owner');
    const guild = await createGuild(creator.api, owner.token, guildName);
    const posters: TestUser[] = [];
    for (const node of nodes.slice(1)) posters.push(await registerUser(node.api, 'poster'));
    for (const poster of posters) await joinGuild(entry.api, owner.token, guild.channelId, poster.token);
    this.#started = { owner, guild };
    this.clients = [owner, ...posters].map(
      (member, index) =>
        new LoadClient(`c${index + 1}`, member.token, guild.channelId, { nodes: () => nodes, start: index }),
    );
    for (const client of this.clients) client.start();
    await this.#waitForEveryClient(`3 messages ${warmUp}`, (client) => client.acked.length >= 3, 20_000);
  }

  /** The guild's text channel, the one the clients post to. */
  /** The guild owner's token (issued before any fault). */
  get ownerToken(): string {
    return this.#whenStarted().owner.token;
  }

  get channelId(): string {
    return this.#whenStarted().guild.channelId;
  }

  /** Every client's acknowledged messages, client by client. */
  get acked(): Acked[] {
    return this.clients.flatMap((client) => client.acked);
  }

  /** Every client's attempts, client by client. */
  get attempts(): Attempt[] {
    return this.clients.flatMap((client) => client.attempts);
  }

  /** Every client's attempts sent in [from, to) (performance.now() times). */
  attemptsBetween(from: number, to?: number): Attempt[] {
    return this.clients.flatMap((client) => client.attemptsBetween(from, to));
  }

  /** Resolves once every client had `count` messages acknowledged that it sent after `since` (performance.now()). */
  waitForAcksSince(count: number, when: string, since: number, timeoutMs: number): Promise<void> {
    const acked = (client: LoadClient): number => client.acked.filter((message) => message.sentAt > since).length;
    return this.#waitForEveryClient(`${count} messages sent ${when}`, (client) => acked(client) >= count, timeoutMs);
  }

  /** Resolves once every client had `count` attempts fail that it sent from `since` (performance.now()) on. */
  waitForFailuresSince(count: number, when: string, since: number, timeoutMs: number): Promise<void> {
    const failed = (client: LoadClient): number =>
      client.attemptsBetween(since).filter((attempt) => attempt.status !== 200).length;
    return this.#waitForEveryClient(`${count} failed attempts ${when}`, (client) => failed(client) >= count, timeoutMs);
  }

  /** Stops every client (LoadClient.stop). */
  async stop(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.stop()));
  }

  /** Every message of the channel, read through `node` as the owner (readAllMessages). */
  readMessages(node: ClusterNode): Promise<MessageJson[]> {
    const { owner, guild } = this.#whenStarted();
    return readAllMessages(node, owner.token, guild.channelId);
  }

  /**
   * Asserts what the clients saw of an outage of `service`, given the attempts they sent while it was
   * down: they kept posting (`perClient` attempts each at least), none of those was acknowledged
   * (`noAckReason`), and every failed attempt of the whole run, those racing the stop and the start
   * included, failed cleanly. Logs the failure window the clients saw from `outageFrom` on.
   */
  assertWritesRefusedWhileDown(
    downAttempts: readonly Attempt[],
    outage: { service: string; outageFrom: number; perClient: number; noAckReason: string },
  ): void {
    const failed = downAttempts.filter((attempt) => attempt.status !== 200);
    const maxMs = Math.max(0, ...failed.map((attempt) => attempt.ms));
    console.log(
      `      ${failed.length} of ${downAttempts.length} attempts failed while ${outage.service} was down (slowest ` +
        `answer ${maxMs} ms, e.g. ${downAttempts[0]?.body ?? '-'}); clients saw failures for ` +
        `${this.#outageSeenMs(outage.outageFrom)} ms`,
    );
    assert.ok(downAttempts.length >= this.clients.length * outage.perClient, 'clients kept posting during the outage');
    assert.deepEqual(
      downAttempts.filter((attempt) => attempt.status === 200).map((attempt) => attempt.content),
      [],
      outage.noAckReason,
    );
    assertFailedCleanly(this.attempts, FAILURE_BOUND_MS);
  }

  /**
   * Asserts that `stored` holds every acknowledged message once, in each client's acknowledged order,
   * and nothing no client sent (a retry must never become a second message).
   */
  assertStoredAsAcknowledged(stored: readonly MessageJson[]): void {
    assertAllAckedOnceInOrder(stored, this.acked);
    const sent = new Set(this.clients.flatMap((client) => client.sent));
    const strangers = stored.filter((message) => !sent.has(message.content)).map((message) => message.content);
    assert.deepEqual(strangers, [], 'nothing is stored that no client sent');
  }

  /** ms from the first failed attempt from `from` on to the first acknowledgment after it (the outage clients saw). */
  #outageSeenMs(from: number): number {
    const firstFailure = Math.min(
      ...this.attemptsBetween(from)
        .filter((attempt) => attempt.status !== 200)
        .map((attempt) => attempt.sentAt),
    );
    const firstAckAfter = Math.min(
      ...this.acked.filter((message) => message.sentAt > firstFailure).map((message) => message.ackedAt),
    );
    return Math.round(firstAckAfter - firstFailure);
  }

  async #waitForEveryClient(
    what: string,
    predicate: (client: LoadClient) => boolean,
    timeoutMs: number,
  ): Promise<void> {
    await Promise.all(this.clients.map((client) => client.waitUntil(what, predicate, timeoutMs)));
  }

  #whenStarted(): { readonly owner: TestUser; readonly guild: TestGuild } {
    if (!this.#started) throw new Error('the guild under load was not started');
    return this.#started;
  }
}

/**
 * Registers the hooks a fault suite ends with: the nodes' last log lines after a failed test; after the
 * suite, the clients of `load` stopped, then `restore()` (what the suite broke that others rely on),
 * then the cluster.
 */
export function cleanUpFaultSuite(
  load: GuildUnderLoad,
  cluster: () => TestCluster | undefined,
  restore: () => Promise<void> = () => Promise.resolve(),
): void {
  afterEach(function () {
    const started = cluster();
    if (this.currentTest?.state === 'failed' && started) console.log(`node logs:\n${started.logTails(25)}`);
  });
  after(async function () {
    this.timeout(240_000);
    await Promise.allSettled(load.clients.map((client) => client.stop()));
    await restore();
    await cluster()?.after();
  });
}
