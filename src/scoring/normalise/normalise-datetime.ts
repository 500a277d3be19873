const isoLike =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * One UTC instant for an ISO 8601 date-time written any of the usual ways
 * (`2026-03-30T15:00:00Z` ≡ `2026-03-30 15:00:00+00:00` ≡ `2026-03-30T17:00+02:00`).
 * A time without an offset is read as UTC, so results never depend on the machine's zone.
 * Undefined when the text is not such a date-time.
 */
export function normaliseDateTime(text: string): string | undefined {
  const match = isoLike.exec(text.trim());
  if (!match) return undefined;
  const [, date, time, zone] = match;
  const offset =
    !zone || zone.toUpperCase() === 'Z'
      ? 'Z'
      : zone.includes(':')
        ? zone
        : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const instant = Date.parse(`${date}T${time}${offset}`);
  return Number.isNaN(instant) ? undefined : new Date(instant).toISOString();
}

/** `YYYY-MM-DD` for a calendar date (a date-time keeps its own date, not shifted to UTC). Undefined when invalid. */
export function normaliseDate(text: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day] = match;
  const check = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return check.getUTCFullYear() === Number(year) &&
    check.getUTCMonth() === Number(month) - 1 &&
    check.getUTCDate() === Number(day)
    ? `${year}-${month}-${day}`
    : undefined;
}
