import type { Metric, Registry } from 'prom-client';

type Labels = Readonly<Record<string, string>>;

interface ExportedValue {
  readonly value: number;
  readonly labels: Readonly<Record<string, string | number>>;
  readonly sharedLabels?: Labels;
  readonly metricName?: string;
}

/** What prom-client's registry reads of a metric when it writes the exposition. */
abstract class Exported {
  readonly aggregator = 'sum';
  abstract readonly type: 'counter' | 'histogram';

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  protected abstract values(): ExportedValue[];

  get(): Promise<{
    name: string;
    help: string;
    type: string;
    values: ExportedValue[];
    aggregator: string;
  }> {
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      values: this.values(),
      aggregator: this.aggregator,
    });
  }

  reset(): void {
    // Cumulative metrics: nothing to reset between scrapes.
  }

  register(registry: Registry): this {
    // The registry reads only name, help, type and get(): this stands in for prom-client's own classes.
    registry.registerMetric(this as unknown as Metric);
    return this;
  }
}

/** A counter series: `inc` is plain arithmetic. */
export interface CounterSeries {
  inc(): void;
}

/**
 * A counter for the response path: each label set is looked up once and kept by the caller, so
 * counting costs an addition instead of prom-client's label validation and hashing per call; the
 * registry reads it at scrape time in prom-client's exact format.
 */
export class FastCounter extends Exported {
  readonly type = 'counter';
  private readonly all: { labels: Labels; value: number }[] = [];

  series(labels: Labels): CounterSeries {
    const entry = { labels, value: 0 };
    this.all.push(entry);
    return { inc: () => void entry.value++ };
  }

  protected values(): ExportedValue[] {
    return this.all.map((entry) => ({ value: entry.value, labels: entry.labels }));
  }
}

/** A histogram series: `observe` is a bucket search and three additions. */
export interface HistogramSeries {
  observe(value: number): void;
}

/** A histogram for the response path, on the same terms as `FastCounter`. */
export class FastHistogram extends Exported {
  readonly type = 'histogram';
  private readonly all: { labels: Labels; counts: number[]; sum: number; count: number }[] = [];

  constructor(
    name: string,
    help: string,
    private readonly buckets: readonly number[],
  ) {
    super(name, help);
  }

  series(labels: Labels): HistogramSeries {
    const entry = {
      labels,
      counts: new Array<number>(this.buckets.length).fill(0),
      sum: 0,
      count: 0,
    };
    this.all.push(entry);
    return {
      observe: (value) => {
        const bucket = this.buckets.findIndex((bound) => value <= bound);
        if (bucket >= 0) entry.counts[bucket] = (entry.counts[bucket] ?? 0) + 1;
        entry.sum += value;
        entry.count++;
      },
    };
  }

  protected values(): ExportedValue[] {
    const bucketName = `${this.name}_bucket`;
    return this.all.flatMap((entry) => {
      let cumulative = 0;
      return [
        ...this.buckets.map((bound, index) => ({
          value: (cumulative += entry.counts[index] ?? 0),
          labels: { le: bound },
          sharedLabels: entry.labels,
          metricName: bucketName,
        })),
        {
          value: entry.count,
          labels: { le: '+Inf' },
          sharedLabels: entry.labels,
          metricName: bucketName,
        },
        {
          value: entry.sum,
          labels: {},
          sharedLabels: entry.labels,
          metricName: `${this.name}_sum`,
        },
        {
          value: entry.count,
          labels: {},
          sharedLabels: entry.labels,
          metricName: `${this.name}_count`,
        },
      ];
    });
  }
}
