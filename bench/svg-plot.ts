/** One line of a panel: its points (x in minutes) and its colour. */
export interface Series {
  readonly name: string;
  readonly colour: string;
  readonly points: readonly (readonly [number, number])[];
}

/** A panel: a y axis with its unit and the lines drawn against it. */
export interface Panel {
  readonly title: string;
  readonly unit: string;
  readonly series: readonly Series[];
}

const width = 760;
const panelHeight = 220;
const left = 64;
const right = 150;
const top = 48;
const gap = 44;

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A round step (1, 2 or 5 × 10^n) giving about `count` ticks over `span`. */
function step(span: number, count: number): number {
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw || 1));
  const unit = [1, 2, 5, 10].find((factor) => factor * magnitude >= raw) ?? 10;
  return unit * magnitude;
}

/**
 * A small SVG line chart: panels stacked over one shared x axis (minutes). Hand-written because
 * the chart libraries in the registry draw into a DOM or a canvas, and this needs one file.
 */
export function svgPlot(title: string, panels: readonly Panel[]): string {
  const xs = panels.flatMap((panel) => panel.series.flatMap((line) => line.points.map(([x]) => x)));
  const xMax = Math.max(1e-9, ...xs);
  const plotWidth = width - left - right;
  const height = top + panels.length * (panelHeight + gap);
  const xOf = (x: number): number => left + (x / xMax) * plotWidth;
  const xStep = step(xMax, 8);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${left}" y="24" font-size="15" font-weight="bold">${escape(title)}</text>`,
  ];
  panels.forEach((panel, index) => {
    const y0 = top + index * (panelHeight + gap);
    const ys = panel.series.flatMap((line) => line.points.map(([, y]) => y));
    const yMax = Math.max(1e-9, ...ys) * 1.1;
    const yOf = (y: number): number => y0 + panelHeight - (y / yMax) * panelHeight;
    const yStep = step(yMax, 5);
    parts.push(
      `<text x="${left}" y="${y0 - 8}" font-weight="bold">${escape(panel.title)} (${escape(panel.unit)})</text>`,
      `<rect x="${left}" y="${y0}" width="${plotWidth}" height="${panelHeight}" fill="none" stroke="#999"/>`,
    );
    for (let y = 0; y <= yMax; y += yStep)
      parts.push(
        `<line x1="${left}" x2="${left + plotWidth}" y1="${yOf(y).toFixed(1)}" y2="${yOf(y).toFixed(1)}" stroke="#eee"/>`,
        `<text x="${left - 6}" y="${(yOf(y) + 4).toFixed(1)}" text-anchor="end">${Number(y.toPrecision(6))}</text>`,
      );
    for (let x = 0; x <= xMax; x += xStep)
      parts.push(
        `<text x="${xOf(x).toFixed(1)}" y="${y0 + panelHeight + 16}" text-anchor="middle">${Number(x.toPrecision(6))}</text>`,
      );
    panel.series.forEach((line, at) => {
      const path = line.points
        .map(([x, y]) => `${xOf(x).toFixed(1)},${yOf(y).toFixed(1)}`)
        .join(' ');
      parts.push(
        `<polyline points="${path}" fill="none" stroke="${line.colour}" stroke-width="1.8"/>`,
        `<rect x="${left + plotWidth + 12}" y="${y0 + 10 + at * 18}" width="12" height="3" fill="${line.colour}"/>`,
        `<text x="${left + plotWidth + 30}" y="${y0 + 15 + at * 18}">${escape(line.name)}</text>`,
      );
    });
  });
  parts.push(
    `<text x="${left + plotWidth / 2}" y="${height - 10}" text-anchor="middle">minutes</text>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}
