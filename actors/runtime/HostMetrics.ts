import { LATENCY_BUCKETS_S, type CounterHandle, type HistogramHandle, type Metrics } from '../../src/domain/Metrics.js';
import { ACTOR_KINDS, type ActorKind } from './ActorKind.js';

/** What the host reports of one activation at scrape time. */
export interface ActivationSample {
  readonly kind: ActorKind;
  readonly state: 'activating' | 'active' | 'stopping';
  /** `size`: messages waiting in its mailbox. */
  readonly mailbox: { readonly size: number };
}

/** Recipients of one fan-out: one guild member's session up to a large guild's online members. */
const FANOUT_BUCKETS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000];

/**
 * The actor host's series, label children bound once per kind: activations and mailbox depth are
 * counted at scrape time from the host's table (nothing on the message path), mailbox wait is a
 * sampled histogram the mailboxes record into, and fan-out sizes are observed per fan-out.
 */
export class HostMetrics {
  readonly #waits: Record<ActorKind, HistogramHandle>;
  readonly #fanouts: Record<ActorKind, HistogramHandle>;
  readonly #activations: Record<ActorKind, CounterHandle>;

  constructor(metrics: Metrics, samples: () => Iterable<ActivationSample>) {
    const wait = metrics.histogram({
      name: 'chorus_actor_mailbox_wait_seconds',
      help: 'Time a message waited in an actor mailbox before its turn (1 in 16 messages sampled), by actor kind',
      labelNames: ['kind'],
      buckets: LATENCY_BUCKETS_S,
    });
    const fanout = metrics.histogram({
      name: 'chorus_dispatch_fanout_sessions',
      help: 'Sessions one dispatch event fanned out to, by the kind of actor fanning out',
      labelNames: ['kind'],
      buckets: FANOUT_BUCKETS,
    });
    const activations = metrics.counter({
      name: 'chorus_actor_activations_total',
      help: 'Activations started on this node, by actor kind',
      labelNames: ['kind'],
    });
    const perKind = <H>(family: { labels(kind: string): H }): Record<ActorKind, H> =>
      Object.fromEntries(ACTOR_KINDS.map((kind) => [kind, family.labels(kind)])) as Record<ActorKind, H>;
    this.#waits = perKind(wait);
    this.#fanouts = perKind(fanout);
    this.#activations = perKind(activations);
    metrics.gauge({
      name: 'chorus_actors_active',
      help: 'Actor activations on this node, by kind and state (activating, active, stopping)',
      labelNames: ['kind', 'state'],
      collect: (gauge) => {
        const counts = new Map<string, number>();
        for (const { kind, state } of samples())
          counts.set(`${kind} ${state}`, (counts.get(`${kind} ${state}`) ?? 0) + 1);
        for (const kind of ACTOR_KINDS) gauge.labels(kind, 'active').set(counts.get(`${kind} active`) ?? 0);
        for (const [id, count] of counts) {
          const [kind = '', state = ''] = id.split(' ');
          if (state !== 'active') gauge.labels(kind, state).set(count);
        }
      },
    });
    metrics.gauge({
      name: 'chorus_actor_mailbox_depth',
      help: 'Messages waiting in mailboxes on this node, by actor kind: the sum and the deepest mailbox',
      labelNames: ['kind', 'of'],
      collect: (gauge) => {
        const sum = new Map<ActorKind, number>();
        const max = new Map<ActorKind, number>();
        for (const { kind, mailbox } of samples()) {
          const queued = mailbox.size;
          sum.set(kind, (sum.get(kind) ?? 0) + queued);
          max.set(kind, Math.max(max.get(kind) ?? 0, queued));
        }
        for (const kind of ACTOR_KINDS) {
          gauge.labels(kind, 'sum').set(sum.get(kind) ?? 0);
          gauge.labels(kind, 'max').set(max.get(kind) ?? 0);
        }
      },
    });
  }

  /** The mailbox wait histogram of a kind (handed to each new Mailbox). */
  waitOf(kind: ActorKind): HistogramHandle {
    return this.#waits[kind];
  }

  activated(kind: ActorKind): void {
    this.#activations[kind].inc();
  }

  fannedOut(kind: ActorKind, sessions: number): void {
    this.#fanouts[kind].observe(sessions);
  }
}
