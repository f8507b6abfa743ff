import { LATENCY_BUCKETS_S, secondsSince, type HistogramHandle, type Metrics } from '../domain/Metrics.js';
import { wrapPorts } from '../domain/wrapPorts.js';

/** Where storage latency goes: one series per backend, `port.method` and outcome. */
export interface StorageLatency {
  /** `ok` and `error` handles of one operation, bound on its first call. */
  of(operation: string): { readonly ok: HistogramHandle; readonly error: HistogramHandle };
}

/** Registers the storage latency histogram of one backend (sqlite, cassandra, redis, memory). */
export function storageLatency(metrics: Metrics, backend: string): StorageLatency {
  const seconds = metrics.histogram({
    name: 'chorus_storage_operation_duration_seconds',
    help: 'Storage call latency by backend, operation (port.method) and outcome',
    labelNames: ['backend', 'operation', 'outcome'],
    buckets: LATENCY_BUCKETS_S,
  });
  return {
    of: (operation) => ({
      ok: seconds.labels(backend, operation, 'ok'),
      error: seconds.labels(backend, operation, 'error'),
    }),
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * The same ports, each asynchronous call timed into `chorus_storage_operation_duration_seconds`
 * under `port.method` (`messages.list`, `sessions.append`): a fixed set of labels, whatever the
 * arguments. Wrapped as fenceStores wraps them (wrapPorts), so ports added later are measured too.
 */
export function meteredStores<T extends object>(stores: T, latency: StorageLatency): T {
  return wrapPorts(stores, (port, method, bound) => {
    const series = latency.of(`${port}.${method}`);
    return (...args: unknown[]): unknown => {
      const startMs = performance.now();
      const result = bound(...args);
      // Synchronous helpers (a key builder, a close) are passed through unmeasured.
      if (!isThenable(result)) return result;
      return Promise.resolve(result).then(
        (outcome) => {
          series.ok.observe(secondsSince(startMs));
          return outcome;
        },
        (error: unknown) => {
          series.error.observe(secondsSince(startMs));
          throw error;
        },
      );
    };
  });
}
