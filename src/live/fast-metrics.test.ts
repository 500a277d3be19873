import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FastCounter, FastHistogram } from './fast-metrics.js';

const buckets = [0.005, 0.05, 0.5, 5];
const labelSets = fc.uniqueArray(
  fc.record({
    route: fc.constantFrom('openai-chat', 'anthropic-messages'),
    model: fc.stringMatching(/^[a-z0-9.-]{1,12}$/),
  }),
  { minLength: 1, maxLength: 4, selector: (labels) => `${labels.route}/${labels.model}` },
);

describe('FastCounter and FastHistogram', () => {
  it("expose exactly what prom-client's own Counter and Histogram expose for the same observations", async () => {
    await fc.assert(
      fc.asyncProperty(
        labelSets,
        fc.array(fc.tuple(fc.nat(), fc.double({ min: 0, max: 20, noNaN: true })), {
          maxLength: 60,
        }),
        async (sets, observations) => {
          const reference = new Registry();
          const counter = new Counter({
            name: 'requests_total',
            help: 'Requests.',
            labelNames: ['route', 'model'],
            registers: [reference],
          });
          const histogram = new Histogram({
            name: 'latency_seconds',
            help: 'Latency.',
            labelNames: ['route', 'model'],
            buckets,
            registers: [reference],
          });
          const fast = new Registry();
          const fastCounter = new FastCounter('requests_total', 'Requests.').register(fast);
          const fastHistogram = new FastHistogram('latency_seconds', 'Latency.', buckets).register(
            fast,
          );
          // Series are created in first-use order, as prom-client lists them.
          const series = new Map<
            string,
            { count: { inc(): void }; latency: { observe(value: number): void } }
          >();
          for (const [pick, value] of observations) {
            const labels = sets[pick % sets.length] as { route: string; model: string };
            counter.inc(labels);
            histogram.observe(labels, value);
            const key = `${labels.route}/${labels.model}`;
            let fastSeries = series.get(key);
            if (!fastSeries)
              series.set(
                key,
                (fastSeries = {
                  count: fastCounter.series(labels),
                  latency: fastHistogram.series(labels),
                }),
              );
            fastSeries.count.inc();
            fastSeries.latency.observe(value);
          }
          expect(await fast.metrics()).toBe(await reference.metrics());
        },
      ),
      { numRuns: 200 },
    );
  });
});
