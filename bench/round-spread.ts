/** A number with `digits` decimals, or a dash where there is none (NaN, no measurement). */
export const fixed = (value: number, digits: number): string =>
  Number.isFinite(value) ? value.toFixed(digits) : '–';

/** min / median / max of per-round values. */
export function spread(values: readonly (number | undefined)[], digits = 2, unit = ''): string {
  const known = values.filter(
    (value): value is number => value !== undefined && Number.isFinite(value),
  );
  if (known.length === 0) return '–';
  const sorted = [...known].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] as number;
  const show = (value: number): string => `${fixed(value, digits)}${unit}`;
  return sorted.length === 1
    ? show(median)
    : `${show(sorted[0] as number)} / **${show(median)}** / ${show(sorted.at(-1) as number)}`;
}
