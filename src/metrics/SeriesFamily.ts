/** A labelled value as prom-client's registry formats it. */
export interface SeriesValue {
  readonly metricName?: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The label object of one series (names in declaration order); a missing value is empty. */
function labelsOf(names: readonly string[], values: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((name, at) => [name, values[at] ?? '']));
}

/**
 * A metric registered in a prom-client Registry (which only calls `get()` at scrape time) whose series
 * are plain objects, one per label-value tuple, made on first use and kept: recording is arithmetic on
 * the handle `labels()` gave, without the label hashing and objects prom-client's own handles make per
 * call (microseconds per request on a busy node). A kind says how to make a series and how to show it.
 */
export abstract class SeriesFamily<Series extends { readonly labels: Readonly<Record<string, string>> }> {
  abstract readonly type: string;
  readonly aggregator = 'sum';
  readonly #series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
  ) {}

  /** The series of these label values, shown from now on (at zero until recorded). */
  labels(...values: string[]): Series {
    const key = values.join('\u0000');
    let series = this.#series.get(key);
    if (!series) {
      series = this.newSeries(labelsOf(this.labelNames, values));
      this.#series.set(key, series);
    }
    return series;
  }

  get(): { name: string; help: string; type: string; aggregator: string; values: SeriesValue[] } {
    const values: SeriesValue[] = [];
    for (const series of this.#series.values()) this.show(series, values);
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  protected abstract newSeries(labels: Readonly<Record<string, string>>): Series;

  /** Appends the exposition lines of one series to `values`. */
  protected abstract show(series: Series, values: SeriesValue[]): void;
}
