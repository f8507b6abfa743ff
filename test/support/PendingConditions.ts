/**
 * Conditions a test waits for on an object whose state changes by events (a poster's acknowledgements, a gateway
 * client's dispatches): the object calls `check()` after each change, and every pending wait whose predicate now
 * holds resolves. No polling, and every wait is bounded.
 */
export class PendingConditions {
  readonly #pending = new Set<() => void>();

  /**
   * Resolves once `holds()` is true (now or at a later check); rejects with `timedOut()` after `timeoutMs`, or with
   * the error of `failed` (the object gave up) if that rejects first.
   */
  wait(holds: () => boolean, timeoutMs: number, timedOut: () => Error, failed?: Promise<unknown>): Promise<void> {
    return new Promise((resolve, reject) => {
      const settle = (error?: Error): void => {
        clearTimeout(timer);
        this.#pending.delete(check);
        if (error) reject(error);
        else resolve();
      };
      const check = (): void => {
        if (holds()) settle();
      };
      const timer = setTimeout(() => {
        settle(timedOut());
      }, timeoutMs);
      this.#pending.add(check);
      void failed?.catch((error: unknown) => {
        settle(error instanceof Error ? error : new Error(String(error)));
      });
      check();
    });
  }

  /** Runs every pending wait's predicate again (after the state changed). */
  check(): void {
    for (const check of [...this.#pending]) check();
  }
}
