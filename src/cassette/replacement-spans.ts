// Where chunk ends land once a body's matches are replaced (in code units and UTF-8 bytes), and
// replacement text expanded as String.prototype.replace expands it: what redacting a chunked body
// keeps in step.
/** A replaced match: its code-unit range in the text before, and the replacement's length. */
export interface Span {
  readonly start: number;
  readonly end: number;
  /** Length of the replacement text. */
  readonly length: number;
}

/** Where a text offset lands after the spans were replaced. */
export function shiftOffset(offset: number, spans: readonly Span[]): number {
  let delta = 0;
  for (const span of spans) {
    if (offset <= span.start) break;
    if (offset < span.end) return span.start + delta + span.length;
    delta += span.length - (span.end - span.start);
  }
  return offset + delta;
}

/** Code-unit offsets in the decoded text of the given byte offsets (which fall on chunk ends). */
export function charOffsets(body: Uint8Array, byteEnds: readonly number[]): number[] {
  const decoder = new TextDecoder();
  const offsets: number[] = [];
  let start = 0;
  let chars = 0;
  for (const end of byteEnds) {
    chars += decoder.decode(body.subarray(start, end), { stream: true }).length;
    offsets.push(chars);
    start = end;
  }
  return offsets;
}

/** UTF-8 byte offsets of code-unit offsets in `text`. */
export function byteOffsets(text: string, charEnds: readonly number[]): number[] {
  const encoder = new TextEncoder();
  const offsets: number[] = [];
  let start = 0;
  let bytes = 0;
  for (const end of charEnds) {
    bytes += encoder.encode(text.slice(start, end)).length;
    offsets.push(bytes);
    start = end;
  }
  return offsets;
}

/** Expands `$$`, `$&`, `$1`… and `$<name>` in a replacement, as String.prototype.replace does. */
export function expandReplacement(replacement: string, args: readonly unknown[]): string {
  const last = args[args.length - 1];
  const groups =
    typeof last === 'object' && last !== null
      ? (last as Record<string, string | undefined>)
      : undefined;
  const offsetIndex = args.findIndex((arg, index) => index > 0 && typeof arg === 'number');
  const captures = args.slice(1, offsetIndex) as (string | undefined)[];
  return replacement.replace(/\$(\$|&|\d{1,2}|<[^>]*>)/g, (token, key: string) => {
    if (key === '$') return '$';
    if (key === '&') return args[0] as string;
    if (key.startsWith('<')) return groups ? (groups[key.slice(1, -1)] ?? '') : token;
    const index = Number(key);
    return index >= 1 && index <= captures.length ? (captures[index - 1] ?? '') : token;
  });
}
