import type { HistogramHandle, MetricFamily } from '../domain/Metrics.js';
import { SeriesFamily, type SeriesValue } from './SeriesFamily.js';

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
 * A histogram whose `observe` is a bucket scan over a typed array and two additions (see SeriesFamily).
 * The exposition is prom-client's: cumulative `_bucket{le}` up to `+Inf`, `_sum`, `_count`.
 */
export class HistogramFamily extends SeriesFamily<HistogramSeries> implements MetricFamily<HistogramHandle> {
  readonly type = 'histogram';
  readonly #bounds: Float64Array;

  constructor(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]) {
    super(name, help, labelNames);
    this.#bounds = Float64Array.from([...buckets].sort((a, b) => a - b));
  }

  protected newSeries(labels: Readonly<Record<string, string>>): HistogramSeries {
    return new HistogramSeries(labels, this.#bounds);
  }

  protected show(series: HistogramSeries, values: SeriesValue[]): void {
    const bucket = `${this.name}_bucket`;
    let cumulative = 0;
    this.#bounds.forEach((bound, at) => {
      cumulative += series.counts[at] ?? 0;
      values.push({ metricName: bucket, labels: { ...series.labels, le: String(bound) }, value: cumulative });
    });
    values.push({ metricName: bucket, labels: { ...series.labels, le: '+Inf' }, value: series.count });
    values.push({ metricName: `${this.name}_sum`, labels: series.labels, value: series.sum });
    values.push({ metricName: `${this.name}_count`, labels: series.labels, value: series.count });
  }
}
