import type { CounterHandle, MetricFamily } from '../domain/Metrics.js';

/** One series: a plain number, read at scrape time. */
class CounterSeries implements CounterHandle {
  value = 0;
  constructor(readonly labels: Readonly<Record<string, string>>) {}
  inc(by = 1): void {
    this.value += by;
  }
}

/** A labelled value as prom-client's registry formats it. */
export interface SeriesValue {
  readonly metricName?: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/**
 * A counter registered in a prom-client Registry (which only calls `get()` at scrape time) whose
 * series are plain objects: `inc` is one addition. prom-client's own child handles hash their label
 * object on every call, which costs microseconds per request on a busy node.
 */
export class CounterFamily implements MetricFamily<CounterHandle> {
  readonly type = 'counter';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, CounterSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
  ) {}

  labels(...values: string[]): CounterHandle {
    const key = values.join('\u0000');
    let series = this.#series.get(key);
    if (!series) {
      series = new CounterSeries(labelsOf(this.labelNames, values));
      this.#series.set(key, series);
    }
    return series;
  }

  get(): { name: string; help: string; type: string; aggregator: string; values: SeriesValue[] } {
    const values = [...this.#series.values()].map(({ labels, value }) => ({ labels, value }));
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

/** The label object of one series (names in declaration order); a missing value is empty. */
export function labelsOf(names: readonly string[], values: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((name, at) => [name, values[at] ?? '']));
}
