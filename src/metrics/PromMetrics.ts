import { collectDefaultMetrics, Gauge, Registry, type Metric } from 'prom-client';
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
import { CounterFamily } from './CounterFamily.js';
import { HistogramFamily } from './HistogramFamily.js';

/**
 * The metrics port on prom-client, with a registry of its own: nodes started in one process (tests,
 * benches) do not share series. Process metrics (CPU, heap, event-loop lag) come with it.
 */
export class PromMetrics implements Metrics {
  readonly #registry = new Registry();
  // One family per name: two backends of one node (cluster mode meters Cassandra and Redis) ask for the
  // same storage histogram, and the registry refuses a second registration of a name.
  readonly #families = new Map<string, MetricFamily<CounterHandle> | MetricFamily<HistogramHandle>>();

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

  // Counters and histograms are recorded on hot paths: their series are plain objects read at
  // scrape time (CounterFamily, HistogramFamily). A series is shown from the moment its handle is
  // bound, at zero, so a rate of errors reads 0 rather than "no data".
  counter(spec: MetricSpec): MetricFamily<CounterHandle> {
    const known = this.#families.get(spec.name);
    if (known instanceof CounterFamily) return known;
    const family = new CounterFamily(spec.name, spec.help, spec.labelNames ?? []);
    this.#register(spec.name, family);
    return family;
  }

  histogram(spec: HistogramSpec): MetricFamily<HistogramHandle> {
    const known = this.#families.get(spec.name);
    if (known instanceof HistogramFamily) return known;
    const family = new HistogramFamily(spec.name, spec.help, spec.labelNames ?? [], spec.buckets);
    this.#register(spec.name, family);
    return family;
  }

  #register(name: string, family: CounterFamily | HistogramFamily): void {
    this.#registry.registerMetric(family as unknown as Metric); // throws for a name taken by another type
    this.#families.set(name, family);
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
