/** A fixed-window counter of client payloads: `limit` per `windowMs` (Discord: 120 per 60 s). */
export class PayloadBudget {
  #windowStart = 0;
  #used = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one payload at `nowMs`; false once the window's budget is spent. */
  take(nowMs: number): boolean {
    if (nowMs - this.#windowStart >= this.windowMs) {
      this.#windowStart = nowMs;
      this.#used = 0;
    }
    this.#used += 1;
    return this.#used <= this.limit;
  }
}
