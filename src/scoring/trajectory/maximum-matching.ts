import { munkres } from 'munkres';

/**
 * A maximum one-to-one matching between rows and columns where `edge(row, column)` holds:
 * for each row, its column or null. Solved as an assignment (Munkres) with cost 0 on an edge
 * and 1 elsewhere, so the result never depends on the order rows or columns arrive in beyond
 * tie-breaking among equally large matchings.
 */
export function maximumMatching(
  rows: number,
  columns: number,
  edge: (row: number, column: number) => boolean,
): (number | null)[] {
  const result: (number | null)[] = Array.from({ length: rows }, () => null);
  if (rows === 0 || columns === 0) return result;
  const cost = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: columns }, (_, column) => (edge(row, column) ? 0 : 1)),
  );
  for (const [row, column] of munkres(cost) as [number, number][])
    if (edge(row, column)) result[row] = column;
  return result;
}
