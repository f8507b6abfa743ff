import type { Logger } from '../domain/Logger.js';

/**
 * The time budget of a graceful stop: each hand-over step waits at most what is left of it, so a
 * stuck step (an actor that never deactivates, a request that never ends) cannot keep the node up
 * and a restart waits for at most the budget. When it runs out the node closes the hard way, which
 * the crash path already makes safe (leases lapse, sessions resume from their buffers).
 */
export class DrainDeadline {
  readonly #endsAt: number;

  constructor(
    budgetMs: number,
    private readonly log: Logger,
  ) {
    this.#endsAt = performance.now() + budgetMs;
  }

  /** Milliseconds left (never negative). */
  get remainingMs(): number {
    return Math.max(0, this.#endsAt - performance.now());
  }

  /** Waits for `step` while the budget lasts; a step that fails or runs late is logged, never thrown. */
  async within(name: string, step: Promise<unknown>): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(resolve, this.remainingMs, 'late');
    });
    try {
      const outcome = await Promise.race([step, late]);
      if (outcome === 'late') this.log.warn('drain_step_late', { step: name });
    } catch (error) {
      this.log.warn('drain_step_failed', { step: name, err: error instanceof Error ? error.message : String(error) });
    } finally {
      clearTimeout(timer);
    }
  }
}
