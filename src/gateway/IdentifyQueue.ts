/**
 * Bounds the Identifies a node works on at once. A connect storm (every client of a node that went
 * away, coming back together) would otherwise start thousands of READYs in the same event-loop turns,
 * and the heartbeats of sessions already connected would wait behind all of them until the clients
 * time out and reconnect, which feeds the storm. Queued work starts in order; each next one after a
 * turn of the event loop (setImmediate), so sockets' frames (heartbeats) are read between Identifies.
 */
/** Started slots dropped from the front of the waiting array once they are this many and half of it. */
const COMPACT_AFTER = 1024;

export class IdentifyQueue {
  #running = 0;
  /** Waiting starts, oldest first: an array read from `#head` rather than shifted (O(1) per start). */
  #waiting: ((() => void) | undefined)[] = [];
  #head = 0;

  constructor(private readonly limit: number) {}

  /** Identifies waiting for a free place. */
  get waiting(): number {
    return this.#waiting.length - this.#head;
  }

  /** Runs `work` (an async function: it must not throw) once fewer than `limit` run; settles as it does. */
  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running < this.limit) {
      this.#running += 1;
      return this.#finally(work());
    }
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push(() => {
        this.#finally(work()).then(resolve, reject);
      });
    });
  }

  #finally<T>(work: Promise<T>): Promise<T> {
    return work.finally(() => {
      this.#next();
    });
  }

  /** One finished: its place goes to the oldest waiting start, a turn of the event loop later. */
  #next(): void {
    const start = this.#waiting[this.#head];
    if (start === undefined) {
      this.#running -= 1;
      return;
    }
    this.#waiting[this.#head] = undefined; // not kept alive by the array until it is reset
    this.#head += 1;
    if (this.#head === this.#waiting.length) {
      this.#waiting = [];
      this.#head = 0;
    } else if (this.#head > COMPACT_AFTER && this.#head * 2 > this.#waiting.length) {
      // A backlog that never drains (a long storm) would otherwise keep every started slot.
      this.#waiting.splice(0, this.#head);
      this.#head = 0;
    }
    setImmediate(start);
  }
}
