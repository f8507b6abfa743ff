import type { HistogramHandle, MetricFamily } from '../domain/Metrics.js';
import { labelsOf, type SeriesValue } from './CounterFamily.js';

/** One series: a count per bucket (not cumulative; summed at scrape time), the sum and the count. */
class HistogramSeries implements HistogramHandle {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: Float64Array,
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(value: number): void {
    if (Number.isNaN(value)) return;
    this.sum += value;
    this.count += 1;
    const { bounds } = this;
    for (let at = 0; at < bounds.length; at += 1) {
      if (value <= (bounds[at] as number)) {
        (this.counts[at] as number) += 1;
        return;
      }
    }
    // Above the last bound: only in +Inf, which is the count.
  }
}

/**
 * A histogram registered in a prom-client Registry (see CounterFamily): `observe` is a bucket scan
 * over a typed array and two additions, without the label hashing and objects prom-client's own
 * handles make per call. The exposition is the same: cumulative `_bucket{le}` up to `+Inf`, `_sum`,
 * `_count`.
 */
export class HistogramFamily implements MetricFamily<HistogramHandle> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, HistogramSeries>();
  readonly #bounds: Float64Array;

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    buckets: readonly number[],
  ) {
    this.#bounds = Float64Array.from([...buckets].sort((a, b) => a - b));
  }

  labels(...values: string[]): HistogramHandle {
    const key = values.join('\u0000');
    let series = this.#series.get(key);
    if (!series) {
      series = new HistogramSeries(labelsOf(this.labelNames, values), this.#bounds);
      this.#series.set(key, series);
    }
    return series;
  }

  get(): { name: string; help: string; type: string; aggregator: string; values: SeriesValue[] } {
    const values: SeriesValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const series of this.#series.values()) {
      let cumulative = 0;
      this.#bounds.forEach((bound, at) => {
        cumulative += series.counts[at] ?? 0;
        values.push({ metricName: bucket, labels: { ...series.labels, le: String(bound) }, value: cumulative });
      });
      values.push({ metricName: bucket, labels: { ...series.labels, le: '+Inf' }, value: series.count });
      values.push({ metricName: `${this.name}_sum`, labels: series.labels, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels: series.labels, value: series.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}
