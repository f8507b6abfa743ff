import { performance } from 'node:perf_hooks';
import { request } from '../cluster/nodes/clusterFixtures.js';

/** One message a poster had acknowledged. */
export interface AckedPost {
  readonly poster: string;
  readonly channelId: string;
  readonly nonce: string;
  readonly content: string;
  readonly id: string;
  /** performance.now() of the first attempt (the message may exist from then on) and of the 2xx. */
  readonly firstSentAt: number;
  readonly ackedAt: number;
  readonly attempts: number;
}

/** An HTTP API base URL of a running node, picked for attempt `n` (undefined: none runs now). */
export type ApiPicker = (attempt: number) => string | undefined;

/** A request to a paused node must not hold a poster for long: a real client times out too. */
const ATTEMPT_TIMEOUT_MS = 4_000;
const RETRY_BACKOFF_MS = 200;
/** A message not acknowledged within this is given up (counted; it may still be stored once). */
const GIVE_UP_MS = 60_000;

/**
 * A careful client posting `<name> #<n>` to one channel, one message at a time: every attempt carries
 * the message's nonce with enforce_nonce, and a network error or 5xx is retried with the same nonce on
 * the next running node. Anything else (a 4xx) is recorded as unexpected.
 */
export class ChaosPoster {
  readonly acked: AckedPost[] = [];
  readonly unexpected: string[] = [];
  givenUp = 0;
  failedAttempts = 0;
  #stopping = false;
  #running: Promise<void> = Promise.resolve();

  constructor(
    readonly name: string,
    private readonly token: string,
    readonly channelId: string,
    private readonly pick: ApiPicker,
    private readonly pauseMs: number,
  ) {}

  start(): void {
    this.#running = (async () => {
      for (let n = 1; !this.#stopping; n += 1) {
        await this.#post(n);
        await new Promise((resolve) => setTimeout(resolve, this.pauseMs));
      }
    })();
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    await this.#running;
  }

  async #post(n: number): Promise<void> {
    const nonce = `${this.name}-${n}`;
    const content = `${this.name} #${n}`;
    const firstSentAt = performance.now();
    for (let attempt = 0; performance.now() - firstSentAt < GIVE_UP_MS; attempt += 1) {
      const base = this.pick(attempt);
      if (base) {
        const outcome = await request(base, 'POST', `/channels/${this.channelId}/messages`, {
          token: this.token,
          body: { content, nonce, enforce_nonce: true },
          timeoutMs: ATTEMPT_TIMEOUT_MS,
        });
        if (outcome.status === 200) {
          const { id } = JSON.parse(outcome.body) as { id: string };
          const ackedAt = performance.now();
          this.acked.push({
            poster: this.name,
            channelId: this.channelId,
            nonce,
            content,
            id,
            firstSentAt,
            ackedAt,
            attempts: attempt + 1,
          });
          return;
        }
        if (outcome.status !== 0 && outcome.status < 500) {
          this.unexpected.push(`${content}: ${outcome.status} ${outcome.body.slice(0, 200)}`);
          return;
        }
        this.failedAttempts += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_BACKOFF_MS));
    }
    this.givenUp += 1;
  }
}
