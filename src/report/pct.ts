/** A fraction as a percentage with one decimal, as every report and gate message prints it (`0.875` → `87.5%`). */
export function pct(value: number): string {
  return `${(Math.round(value * 1000) / 10).toString()}%`;
}
