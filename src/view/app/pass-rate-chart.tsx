import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { RunListing } from '../api-types.js';

/** Colours that keep 3:1 contrast on white (WCAG non-text contrast), one per suite. */
const palette = [
  '#0550ae',
  '#a40e26',
  '#116329',
  '#7d4e00',
  '#6639ba',
  '#0a6e73',
  '#953800',
  '#57606a',
];

/** A run's pass rate over its configurations (their mean), 0..1. */
const passRate = (run: RunListing): number =>
  run.configs.length === 0
    ? 0
    : run.configs.reduce((sum, config) => sum + config.pass_rate, 0) / run.configs.length;

/**
 * Pass rate over time, one line per suite (at most eight, the most frequent), from the listed
 * runs. The chart is a picture of the table below it, which stays the accessible source.
 */
export function PassRateChart({ runs }: { runs: readonly RunListing[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || runs.length < 2) return;
    const counts = new Map<string, number>();
    for (const run of runs) counts.set(run.suite, (counts.get(run.suite) ?? 0) + 1);
    const suites = [...counts.entries()]
      .sort((left, right) => right[1] - left[1])
      .slice(0, palette.length)
      .map(([suite]) => suite);
    const tables = suites.map((suite) => {
      const points = runs
        .filter((run) => run.suite === suite)
        .map((run) => [Date.parse(run.started_at) / 1000, passRate(run) * 100] as const)
        .sort((left, right) => left[0] - right[0]);
      return [
        points.map((point) => point[0]),
        points.map((point) => point[1]),
      ] as uPlot.AlignedData;
    });
    const data = uPlot.join(tables);
    const plot = new uPlot(
      {
        width: Math.max(320, element.clientWidth),
        height: 200,
        scales: { y: { range: [0, 100] } },
        axes: [{}, { values: (_plot, ticks) => ticks.map((tick) => `${tick}%`) }],
        series: [
          {},
          ...suites.map((suite, index) => ({
            label: suite,
            stroke: palette[index] ?? '#57606a',
            width: 2,
            spanGaps: true,
            points: { show: true, size: 5 },
            value: (_plot: uPlot, rate: number | null) =>
              rate === null ? '—' : `${rate.toFixed(1)}%`,
          })),
        ],
      },
      data,
      element,
    );
    return () => plot.destroy();
  }, [runs]);
  if (runs.length < 2) return null;
  return (
    <figure class="chart">
      <div
        ref={box}
        role="img"
        aria-label="Pass rate over time per suite (the table below lists the same runs)"
      />
      <figcaption class="muted">
        Pass rate over time, per suite (mean over run configurations)
      </figcaption>
    </figure>
  );
}
