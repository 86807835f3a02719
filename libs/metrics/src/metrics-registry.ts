import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type Labels = Record<string, string>;

/** One series a scrape-time gauge reads: its labels (the service label is added) and its value. */
export interface GaugeReading {
  labels?: Labels;
  value: number;
}

/** Read when Prometheus scrapes; a failing reader leaves its series out of that scrape. */
export type GaugeReader = () => GaugeReading[] | Promise<GaugeReading[]>;

export interface CounterHandle {
  inc(labels?: Labels, value?: number): void;
}

export interface HistogramHandle {
  observe(labels: Labels, value: number): void;
}

/**
 * A service's view of the process registry: every series it writes carries `service`. In the embedded
 * profile six services share one registry (one /metrics for the process), so a metric is declared once
 * per process and each service's series are told apart by that label, never by a second registry
 * (prom-client cannot merge two registries holding the same metric name).
 */
export interface ServiceMetrics {
  readonly service: string;
  counter(name: string, help: string, labelNames?: string[]): CounterHandle;
  histogram(name: string, help: string, labelNames: string[], buckets?: number[]): HistogramHandle;
  /** A gauge computed at scrape time (backlogs, lag); returns its removal. */
  gauge(name: string, help: string, labelNames: string[], read: GaugeReader): () => void;
}

/** Seconds: from 5 ms to 10 s, for request durations and added latencies. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type AnyMetric = Counter<string> | Gauge<string> | Histogram<string>;

/**
 * The metrics of one process (or one service thread), in Prometheus text format through prom-client.
 * Metrics are declared on first use and shared: a second declaration of a name returns the first one,
 * and its label names must match (a mismatch is a programming error and throws).
 */
export class MetricsRegistry {
  readonly registry = new Registry();
  private readonly metrics = new Map<string, { metric: AnyMetric; labelNames: string }>();
  private readonly readers = new Map<string, Set<{ service: string; read: GaugeReader }>>();

  /** Process metrics (CPU, memory, event loop lag, GC) as vaultline_process_*, vaultline_nodejs_*: once per process. */
  collectProcessMetrics(): this {
    collectDefaultMetrics({ register: this.registry, prefix: 'vaultline_' });
    return this;
  }

  forService(service: string): ServiceMetrics {
    return {
      service,
      counter: (name, help, labelNames = []) => {
        const counter = this.declare(
          name,
          labelNames,
          (names) => new Counter({ name, help, labelNames: names, registers: [this.registry] }),
        ) as Counter<string>;
        return { inc: (labels = {}, value = 1) => counter.inc({ service, ...labels }, value) };
      },
      histogram: (name, help, labelNames, buckets = LATENCY_BUCKETS) => {
        const histogram = this.declare(
          name,
          labelNames,
          (names) => new Histogram({ name, help, labelNames: names, buckets, registers: [this.registry] }),
        ) as Histogram<string>;
        return { observe: (labels, value) => histogram.observe({ service, ...labels }, value) };
      },
      gauge: (name, help, labelNames, read) => {
        const readers = this.readers.get(name) ?? new Set();
        this.readers.set(name, readers);
        this.declare(name, labelNames, (names) => {
          const readInto = (gauge: Gauge<string>, source: { service: string; read: GaugeReader }) => this.readInto(gauge, source);
          return new Gauge({
            name,
            help,
            labelNames: names,
            registers: [this.registry],
            async collect() {
              // Every scrape reads every source afresh: a series whose source went away disappears.
              this.reset();
              await Promise.all([...readers].map((source) => readInto(this, source)));
            },
          });
        });
        const source = { service, read };
        readers.add(source);
        return () => void readers.delete(source);
      },
    };
  }

  contentType(): string {
    return this.registry.contentType;
  }

  /** The Prometheus text exposition of everything registered. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  /** For a service thread: its metrics as JSON, for the main thread's /metrics to merge (mergeMetricsJson). */
  toJson(): Promise<unknown[]> {
    return this.registry.getMetricsAsJSON();
  }

  private async readInto(gauge: Gauge<string>, source: { service: string; read: GaugeReader }): Promise<void> {
    try {
      for (const reading of await source.read()) gauge.set({ service: source.service, ...reading.labels }, reading.value);
    } catch {
      // A backlog that cannot be read now (store closing, bus down) is left out rather than failing the scrape.
    }
  }

  private declare(name: string, labelNames: string[], create: (names: string[]) => AnyMetric): AnyMetric {
    if (!name.startsWith('vaultline_')) throw new Error(`metric ${name}: Vaultline metric names start with vaultline_`);
    const names = ['service', ...labelNames.filter((label) => label !== 'service')];
    const key = names.join(',');
    const existing = this.metrics.get(name);
    if (existing) {
      if (existing.labelNames !== key) throw new Error(`metric ${name} is declared with labels ${existing.labelNames}, not ${key}`);
      return existing.metric;
    }
    const metric = create(names);
    this.metrics.set(name, { metric, labelNames: key });
    return metric;
  }
}
