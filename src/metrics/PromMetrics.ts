import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type {
  CounterHandle,
  GaugeHandle,
  GaugeSpec,
  HistogramHandle,
  HistogramSpec,
  MetricFamily,
  Metrics,
  MetricSpec,
} from '../domain/Metrics.js';

/**
 * The metrics port on prom-client, with a registry of its own: nodes started in one process (tests,
 * benches) do not share series. Process metrics (CPU, heap, event-loop lag) come with it.
 */
export class PromMetrics implements Metrics {
  readonly #registry = new Registry();

  constructor() {
    collectDefaultMetrics({ register: this.#registry });
  }

  /** The Content-Type of `render()`'s text. */
  get contentType(): string {
    return this.#registry.contentType;
  }

  /** Every metric in the Prometheus text exposition format (runs the gauges' collect callbacks). */
  render(): Promise<string> {
    return this.#registry.metrics();
  }

  // A series is shown from the moment its handle is bound, at zero: a rate of errors reads 0, not "no data".
  counter(spec: MetricSpec): MetricFamily<CounterHandle> {
    const counter = new Counter({ ...this.#base(spec) });
    return {
      labels: (...values) => {
        const child = counter.labels(...values);
        child.inc(0);
        return child;
      },
    };
  }

  histogram(spec: HistogramSpec): MetricFamily<HistogramHandle> {
    const names = spec.labelNames ?? [];
    const histogram = new Histogram({ ...this.#base(spec), buckets: [...spec.buckets] });
    return {
      labels: (...values) => {
        histogram.zero(Object.fromEntries(names.map((name, at) => [name, values[at] ?? ''])));
        return histogram.labels(...values);
      },
    };
  }

  gauge(spec: GaugeSpec): MetricFamily<GaugeHandle> {
    const fill = spec.collect;
    if (!fill) return new Gauge({ ...this.#base(spec) });
    return new Gauge({
      ...this.#base(spec),
      async collect() {
        this.reset(); // a series not set this time (a kind with no activations left) disappears
        await fill(this);
      },
    });
  }

  #base(spec: MetricSpec): { name: string; help: string; labelNames: string[]; registers: Registry[] } {
    return { name: spec.name, help: spec.help, labelNames: [...(spec.labelNames ?? [])], registers: [this.#registry] };
  }
}
