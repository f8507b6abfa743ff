import type { Config } from '../config/Config.js';
import type { Metrics } from '../domain/Metrics.js';
import type { HealthReport } from '../http/EdgeDeps.js';
import type { MetricsEndpoint } from '../http/httpMetrics.js';
import { PromMetrics } from '../metrics/PromMetrics.js';
import { meteredStores, storageLatency } from '../store/meteredStores.js';

/** The node's registry, or undefined with CHORUS_METRICS=off (then nothing is recorded or wrapped). */
export function createNodeMetrics(config: Config): PromMetrics | undefined {
  return config.metrics.enabled === 'on' ? new PromMetrics() : undefined;
}

/** What GET /metrics serves, guarded by CHORUS_METRICS_TOKEN when set. */
export function metricsEndpoint(metrics: PromMetrics, token: string): MetricsEndpoint {
  return { metrics, token, contentType: metrics.contentType, render: () => metrics.render() };
}

/** `stores` with each call timed under `backend` (sqlite, cassandra, redis); unchanged without metrics. */
export function meterStores<T extends object>(stores: T, metrics: PromMetrics | undefined, backend: string): T {
  return metrics ? meteredStores(stores, storageLatency(metrics, backend)) : stores;
}

/**
 * `chorus_dependency_up` from the node's health check at scrape time: Redis (membership heartbeat)
 * and Cassandra (a read) in cluster mode, the SQLite store in embedded mode. A scrape every 15 s
 * costs one such check, nothing runs between scrapes.
 */
export function registerHealthGauge(metrics: Metrics, health: () => Promise<HealthReport>): void {
  metrics.gauge({
    name: 'chorus_dependency_up',
    help: 'Whether a dependency answered the last health check (1) or not (0): redis, cassandra, storage',
    labelNames: ['dependency'],
    collect: async (gauge) => {
      const report = await health().catch(() => undefined);
      for (const [dependency, check] of Object.entries(report?.checks ?? {})) {
        gauge.labels(dependency).set(check === 'ok' ? 1 : 0);
      }
    },
  });
}
