/** A share 0..1 as a percentage with one decimal (`87.5%`). */
export const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;

/** A duration in milliseconds as people read it (`850 ms`, `12.3 s`, `4 min 05 s`). */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** An ISO time as `2026-12-03 15:20` (the runs database keeps UTC). */
export const when = (iso: string): string => iso.replace('T', ' ').slice(0, 16);
