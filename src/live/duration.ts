const units: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** Milliseconds in a duration such as `500ms`, `30s`, `5m`, `1h`, `7d`; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * (units[match[2] as string] ?? 1);
}
