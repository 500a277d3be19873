/**
 * Bounds the values one metric label may take: the first `limit` distinct values pass through,
 * later ones become `other`. Label values are cut to 64 characters. Keeps a staging proxy's
 * series count bounded whatever model or tool names its traffic carries.
 */
export class LabelGuard {
  private readonly seen = new Set<string>();

  constructor(private readonly limit: number) {}

  value(raw: string | undefined): string {
    const value =
      raw === undefined || raw === '' ? 'unknown' : raw.length > 64 ? raw.slice(0, 64) : raw;
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.limit) return 'other';
    this.seen.add(value);
    return value;
  }
}
