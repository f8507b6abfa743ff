import { ActorOverloadedError } from '../../src/domain/errors.js';
import { secondsSince, type HistogramHandle } from '../../src/domain/Metrics.js';
import { currentTrace, type TraceContext } from '../../src/tracing/traceScope.js';

interface Letter<M, R> {
  readonly message: M;
  readonly resolve: ((reply: R) => void) | undefined;
  readonly reject: ((error: unknown) => void) | undefined;
  /** performance.now() when queued, for a sampled letter; 0 otherwise. */
  readonly queuedAtMs: number;
  /** The trace the letter was sent in, resumed by its turn; undefined while tracing is off. */
  readonly trace: TraceContext | undefined;
}

/**
 * One letter in this many has its wait measured: two clock reads and an observe per letter would
 * show. Counted across all mailboxes, so actors that get a few letters each are sampled too.
 */
const WAIT_SAMPLE_EVERY = 16;
let lettersQueued = 0;

/**
 * A bounded, serial mailbox: one turn at a time, in arrival order. The only concurrency primitive
 * actors use. A full mailbox refuses at once (ActorOverloadedError) instead of queueing without bound.
 */
export class Mailbox<M, R, O = undefined> {
  readonly #queue: Letter<M, R>[] = [];
  #head = 0;
  #draining = false;

  /**
   * `turn` and `onTellError` get `owner` too: a host shares one of each among all its mailboxes, instead of
   * two closures per actor over its activation (issue 15 §3: an idle session is two activations).
   */
  constructor(
    private readonly turn: (message: M, trace: TraceContext | undefined, owner: O) => Promise<R>,
    private readonly capacity: number,
    private readonly onTellError: (error: unknown, message: M, owner: O) => void,
    /** Time sampled letters waited before their turn began (seconds). */
    private readonly waitSeconds?: HistogramHandle,
    private readonly owner?: O,
  ) {}

  /** Messages waiting, not counting the one in its turn. */
  get size(): number {
    return this.#queue.length - this.#head;
  }

  /** True while a turn runs or messages wait. */
  get busy(): boolean {
    return this.#draining || this.size > 0;
  }

  /** Queues a request; the promise settles with the turn's reply. */
  ask(message: M): Promise<R> {
    if (this.size >= this.capacity) return Promise.reject(new ActorOverloadedError());
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ message, resolve, reject, queuedAtMs: this.#stamp(), trace: currentTrace() });
      this.#kick();
    });
  }

  /** Queues a one-way message; a failure of its turn goes to `onTellError`. */
  tell(message: M): void {
    if (this.size >= this.capacity) throw new ActorOverloadedError();
    this.#queue.push({
      message,
      resolve: undefined,
      reject: undefined,
      queuedAtMs: this.#stamp(),
      trace: currentTrace(),
    });
    this.#kick();
  }

  /** Rejects every waiting message (used when an activation fails or is abandoned). */
  rejectAll(error: unknown): void {
    const waiting = this.#queue.splice(this.#head);
    this.#queue.length = 0;
    this.#head = 0;
    for (const letter of waiting) letter.reject?.(error);
  }

  #stamp(): number {
    if (!this.waitSeconds) return 0;
    lettersQueued = (lettersQueued + 1) % WAIT_SAMPLE_EVERY;
    return lettersQueued === 0 ? performance.now() : 0;
  }

  #kick(): void {
    if (!this.#draining) {
      this.#draining = true;
      void this.#drain();
    }
  }

  async #drain(): Promise<void> {
    while (this.#head < this.#queue.length) {
      const letter = this.#queue[this.#head] as Letter<M, R>;
      this.#head += 1;
      if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        this.#queue.splice(0, this.#head); // compact without shifting on every turn
        this.#head = 0;
      }
      if (letter.queuedAtMs > 0) this.waitSeconds?.observe(secondsSince(letter.queuedAtMs));
      try {
        const reply = await this.turn(letter.message, letter.trace, this.owner as O);
        letter.resolve?.(reply);
      } catch (error) {
        if (letter.reject) letter.reject(error);
        else this.onTellError(error, letter.message, this.owner as O);
      }
    }
    this.#queue.length = 0;
    this.#head = 0;
    this.#draining = false;
  }
}
