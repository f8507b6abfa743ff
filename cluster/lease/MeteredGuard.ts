import type { ActorKind } from '../../actors/runtime/ActorKind.js';
import type { ActivationGuard } from '../../actors/runtime/ports/coordination.js';
import { toAppError } from '../../src/domain/errors.js';
import { LATENCY_BUCKETS_S, secondsSince, type CounterHandle, type Metrics } from '../../src/domain/Metrics.js';

interface Outcomes {
  readonly ok: CounterHandle;
  /** Another node holds the lease, or the key moved (WrongOwnerError). */
  readonly refused: CounterHandle;
  /** The lease table could not answer (Redis down, membership lost). */
  readonly failed: CounterHandle;
}

/**
 * An ActivationGuard that counts lease acquisitions (granted, refused because another node holds
 * the lease or the key moved, failed) with their latency, and commit checks the fence refused: the
 * numbers that show actors moving between nodes and deposed owners trying to write.
 */
export class MeteredGuard implements ActivationGuard {
  readonly #acquires: Outcomes;
  readonly #commits: Outcomes;
  readonly #acquireSeconds;

  constructor(
    private readonly inner: ActivationGuard,
    metrics: Metrics,
    /** Leases this node holds now (read at scrape time). */
    held: () => number,
  ) {
    const acquires = metrics.counter({
      name: 'chorus_lease_acquisitions_total',
      help: 'Actor lease acquisitions by outcome: ok, refused (held elsewhere or moved), failed (table unreachable)',
      labelNames: ['outcome'],
    });
    const commits = metrics.counter({
      name: 'chorus_lease_commit_checks_total',
      help: 'Commit fence checks before storage writes by outcome (refused: the lease was no longer ours)',
      labelNames: ['outcome'],
    });
    const outcomes = (family: typeof acquires): Outcomes => ({
      ok: family.labels('ok'),
      refused: family.labels('refused'),
      failed: family.labels('failed'),
    });
    this.#acquires = outcomes(acquires);
    this.#commits = outcomes(commits);
    this.#acquireSeconds = metrics
      .histogram({
        name: 'chorus_lease_acquire_duration_seconds',
        help: 'Time to take an actor lease (including waiting for another node to let it lapse)',
        buckets: LATENCY_BUCKETS_S,
      })
      .labels();
    metrics.gauge({
      name: 'chorus_leases_held',
      help: 'Actor leases this node holds',
      collect: (gauge) => {
        gauge.labels().set(held());
      },
    });
  }

  async acquire(kind: ActorKind, key: string): Promise<number> {
    const startMs = performance.now();
    try {
      const epoch = await this.inner.acquire(kind, key);
      this.#acquires.ok.inc();
      return epoch;
    } catch (error) {
      this.#count(this.#acquires, error);
      throw error;
    } finally {
      this.#acquireSeconds.observe(secondsSince(startMs));
    }
  }

  async assertCommittable(kind: ActorKind, key: string, epoch: number): Promise<void> {
    try {
      await this.inner.assertCommittable(kind, key, epoch);
      this.#commits.ok.inc();
    } catch (error) {
      this.#count(this.#commits, error);
      throw error;
    }
  }

  release(kind: ActorKind, key: string, epoch: number): Promise<void> {
    return this.inner.release(kind, key, epoch);
  }

  #count(outcomes: Outcomes, error: unknown): void {
    (toAppError(error).kind === 'moved' ? outcomes.refused : outcomes.failed).inc();
  }
}
