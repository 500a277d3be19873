/** Calls passed and failed per minute, by tool. */
export type PassRates = ReadonlyMap<
  string,
  ReadonlyMap<number, { passed: number; failed: number }>
>;

const palette = [
  '#0969da',
  '#cf222e',
  '#1a7f37',
  '#8250df',
  '#bf8700',
  '#e16f24',
  '#1b7c83',
  '#6e7781',
];
const width = 640;
const height = 220;
const left = 36;
const bottom = 20;
const top = 8;

/** Per-tool pass rate per minute over the last hour, one line per tool (a dot for a single minute). */
export function PassRateChart({ rates, now }: { rates: PassRates; now: number }) {
  const minute = Math.floor(now / 60_000);
  const x = (at: number): number => left + ((at - (minute - 59)) / 59) * (width - left - 8);
  const y = (rate: number): number => top + (1 - rate) * (height - top - bottom);
  const lines = [...rates].map(([tool, minutes], index) => ({
    tool,
    color: palette[index % palette.length] ?? '#000',
    points: [...minutes]
      .filter(([at]) => at > minute - 60)
      .sort((first, second) => first[0] - second[0])
      .map(([at, counts]) => [x(at), y(counts.passed / (counts.passed + counts.failed))] as const),
  }));
  return (
    <figure class="chart">
      <svg
        id="chart"
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label="Pass rate per tool per minute, last hour"
      >
        {[0, 0.5, 1].map((rate) => (
          <g key={rate}>
            <line x1={left} x2={width - 8} y1={y(rate)} y2={y(rate)} stroke="#d0d7de" />
            <text x={0} y={y(rate) + 4} font-size="11">
              {rate * 100}%
            </text>
          </g>
        ))}
        {lines.map((line) =>
          line.points.length === 1 ? (
            <circle
              key={line.tool}
              data-tool={line.tool}
              cx={line.points[0]?.[0]}
              cy={line.points[0]?.[1]}
              r={3}
              fill={line.color}
            />
          ) : (
            <polyline
              key={line.tool}
              data-tool={line.tool}
              points={line.points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' ')}
              fill="none"
              stroke={line.color}
              stroke-width={2}
            />
          ),
        )}
      </svg>
      <figcaption class="legend">
        {lines.map((line) => (
          <span key={line.tool}>
            <i style={{ background: line.color }} aria-hidden="true" /> {line.tool}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
