import type { ActorKind, CommandOf, ReplyOf } from '../../actors/runtime/ActorKind.js';
import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import type { AppError } from '../../src/domain/errors.js';
import {
  LATENCY_BUCKETS_S,
  secondsSince,
  type CounterHandle,
  type HistogramHandle,
  type MetricFamily,
  type Metrics,
} from '../../src/domain/Metrics.js';
import type { RemoteTransport } from './RemoteTransport.js';
import { addressOf } from './GrpcClientPool.js';

type Call = 'ask' | 'tell' | 'fanout';

interface CallSeries {
  readonly ok: CounterHandle;
  readonly error: CounterHandle;
  readonly seconds: HistogramHandle;
}

interface PeerSeries {
  readonly ask: CallSeries;
  readonly tell: CallSeries;
  readonly fanout: CallSeries;
  readonly pushes: CounterHandle;
}

/**
 * A RemoteTransport that counts calls to each peer by outcome and times them until the peer
 * answered (an ask's reply, a tell's or fan-out batch's acknowledgement). Frame pushes are
 * one-way with no acknowledgement, so they are only counted.
 */
export class MeteredTransport implements RemoteTransport {
  readonly #peers = new Map<string, PeerSeries>();
  readonly #calls: MetricFamily<CounterHandle>;
  readonly #seconds: MetricFamily<HistogramHandle>;

  constructor(
    private readonly inner: RemoteTransport,
    metrics: Metrics,
  ) {
    this.#calls = metrics.counter({
      name: 'chorus_remote_calls_total',
      help: 'Calls to other nodes by peer, call (ask, tell, fanout, push) and outcome (ok, error, sent)',
      labelNames: ['peer', 'call', 'outcome'],
    });
    this.#seconds = metrics.histogram({
      name: 'chorus_remote_call_duration_seconds',
      help: 'Time until a peer answered an ask or acknowledged a tell or fan-out batch, by peer and call',
      labelNames: ['peer', 'call'],
      buckets: LATENCY_BUCKETS_S,
    });
  }

  ask<K extends ActorKind>(
    nodeId: string,
    kind: K,
    key: string,
    command: CommandOf<K>,
    deadlineMs: number,
  ): Promise<ReplyOf<K>> {
    const series = this.#series(nodeId).ask;
    const startMs = performance.now();
    return this.inner.ask(nodeId, kind, key, command, deadlineMs).then(
      (reply) => {
        series.seconds.observe(secondsSince(startMs));
        series.ok.inc();
        return reply;
      },
      (error: unknown) => {
        series.seconds.observe(secondsSince(startMs));
        series.error.inc();
        throw error;
      },
    );
  }

  tell<K extends ActorKind>(
    nodeId: string,
    kind: K,
    key: string,
    command: CommandOf<K>,
    done?: (error: AppError | undefined) => void,
  ): void {
    this.inner.tell(nodeId, kind, key, command, this.#timed(this.#series(nodeId).tell, done));
  }

  fanOut(
    nodeId: string,
    sessionIds: readonly string[],
    event: DispatchEvent,
    source?: string,
    done?: (error: AppError | undefined) => void,
  ): void {
    this.inner.fanOut(nodeId, sessionIds, event, source, this.#timed(this.#series(nodeId).fanout, done));
  }

  pushFrames(nodeId: string, socketId: string, frames: readonly string[], closeCode: number): void {
    this.#series(nodeId).pushes.inc();
    this.inner.pushFrames(nodeId, socketId, frames, closeCode);
  }

  #timed(
    series: CallSeries,
    done: ((error: AppError | undefined) => void) | undefined,
  ): (error: AppError | undefined) => void {
    const startMs = performance.now();
    return (error) => {
      series.seconds.observe(secondsSince(startMs));
      (error ? series.error : series.ok).inc();
      done?.(error);
    };
  }

  #series(nodeId: string): PeerSeries {
    let found = this.#peers.get(nodeId);
    if (!found) {
      // By address: a restarted node is a new id, but one series per peer across restarts, not per incarnation.
      const peer = addressOf(nodeId);
      const call = (name: Call): CallSeries => ({
        ok: this.#calls.labels(peer, name, 'ok'),
        error: this.#calls.labels(peer, name, 'error'),
        seconds: this.#seconds.labels(peer, name),
      });
      found = {
        ask: call('ask'),
        tell: call('tell'),
        fanout: call('fanout'),
        pushes: this.#calls.labels(peer, 'push', 'sent'),
      };
      this.#peers.set(nodeId, found);
    }
    return found;
  }
}
