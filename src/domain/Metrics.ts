/**
 * The metrics port: counters, histograms and gauges by label, implemented with prom-client in
 * src/metrics and injected by src/node. It sits beside Logger because every layer (edge, cluster,
 * actors) records into it and none of them may import prom-client. Hot paths take `labels(...)`
 * once and keep the handle, so a recording is one call without allocation.
 */

/** A monotonically growing count. */
export interface CounterHandle {
  inc(by?: number): void;
}

/** A distribution: latencies in seconds, sizes in items. */
export interface HistogramHandle {
  observe(value: number): void;
}

/** A value set at scrape time (or whenever it changes). */
export interface GaugeHandle {
  set(value: number): void;
}

/** One metric name; `labels` gives the series of those label values (in `labelNames` order). */
export interface MetricFamily<Handle> {
  labels(...values: string[]): Handle;
}

/** Name and help text; `labelNames` in the order `labels(...)` takes them. */
export interface MetricSpec {
  readonly name: string;
  readonly help: string;
  readonly labelNames?: readonly string[];
}

/** A histogram also names its bucket upper bounds. */
export interface HistogramSpec extends MetricSpec {
  readonly buckets: readonly number[];
}

/**
 * A gauge may be filled at scrape time by `collect` (series it does not set this time disappear), so
 * a count the owner already keeps (open sockets, live activations) costs nothing between scrapes.
 */
export interface GaugeSpec extends MetricSpec {
  readonly collect?: (gauge: MetricFamily<GaugeHandle>) => void | Promise<void>;
}

/** Where metrics are registered; one per node. */
export interface Metrics {
  counter(spec: MetricSpec): MetricFamily<CounterHandle>;
  histogram(spec: HistogramSpec): MetricFamily<HistogramHandle>;
  gauge(spec: GaugeSpec): MetricFamily<GaugeHandle>;
}

const NOTHING = { inc: () => undefined, observe: () => undefined, set: () => undefined };
const NO_FAMILY = { labels: () => NOTHING };

/** Records nothing: the default where no metrics are wired (tests, CHORUS_METRICS=off). */
export const noMetrics: Metrics = {
  counter: () => NO_FAMILY,
  histogram: () => NO_FAMILY,
  gauge: () => NO_FAMILY,
};

/** Latency buckets in seconds, from a cached read (0.5 ms) to a request at its deadline (10 s). */
export const LATENCY_BUCKETS_S: readonly number[] = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** Seconds since `startMs` (a performance.now() reading). */
export function secondsSince(startMs: number): number {
  return (performance.now() - startMs) / 1000;
}
