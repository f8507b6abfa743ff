import { LATENCY_BUCKETS_S, secondsSince, type HistogramHandle, type Metrics } from '../domain/Metrics.js';

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

function meteredPort<T extends object>(port: T, name: string, latency: StorageLatency): T {
  const wrapped = new Map<string, unknown>();
  return new Proxy(port, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      let method = wrapped.get(property);
      if (method === undefined) {
        const fn = value as (...args: unknown[]) => unknown;
        const series = latency.of(`${name}.${property}`);
        method = (...args: unknown[]): unknown => {
          const startMs = performance.now();
          const result = fn.apply(target, args);
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
        wrapped.set(property, method);
      }
      return method;
    },
  });
}

/**
 * The same ports, each asynchronous call timed into `chorus_storage_operation_duration_seconds`
 * under `port.method` (`messages.list`, `sessions.append`): a fixed set of labels, whatever the
 * arguments. Like fenceStores, object-valued members are wrapped on first use, so ports added later
 * are measured too.
 */
export function meteredStores<T extends object>(stores: T, latency: StorageLatency): T {
  const ports = new Map<PropertyKey, unknown>();
  return new Proxy(stores, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value === 'function') return (value as (...args: unknown[]) => unknown).bind(target);
      if (value === null || typeof value !== 'object' || typeof property !== 'string') return value;
      let port = ports.get(property);
      if (port === undefined) ports.set(property, (port = meteredPort(value, property, latency)));
      return port;
    },
  });
}
