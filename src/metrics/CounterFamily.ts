import type { CounterHandle, MetricFamily } from '../domain/Metrics.js';
import { SeriesFamily, type SeriesValue } from './SeriesFamily.js';

/** One series: a plain number, read at scrape time. */
class CounterSeries implements CounterHandle {
  value = 0;
  constructor(readonly labels: Readonly<Record<string, string>>) {}
  inc(by = 1): void {
    this.value += by;
  }
}

/** A counter whose `inc` is one addition (see SeriesFamily). */
export class CounterFamily extends SeriesFamily<CounterSeries> implements MetricFamily<CounterHandle> {
  readonly type = 'counter';

  protected newSeries(labels: Readonly<Record<string, string>>): CounterSeries {
    return new CounterSeries(labels);
  }

  protected show({ labels, value }: CounterSeries, values: SeriesValue[]): void {
    values.push({ labels, value });
  }
}
