import diff, { type Difference } from 'microdiff';
import type { CanonicalRequest } from './canonical-request.js';

/** How a request differs from a recording, for a replay miss. */
export interface Mismatch {
  /** The first differing part, e.g. `body.messages[1].content`. */
  readonly field: string;
  /** Number of differing leaves: the distance used to pick the nearest recording. */
  readonly distance: number;
  /** Compact diff, one `path: recorded → requested` line per difference (first few). */
  readonly lines: readonly string[];
}

/** Parts compared first, so the message names what a person changed (model, then messages, then tools). */
const bodyOrder = ['model', 'messages', 'input', 'system', 'instructions', 'tools', 'tool_choice'];

/** Compares a request with a recording's canonical request. Undefined when they are equal. */
export function describeMismatch(
  recorded: CanonicalRequest,
  requested: CanonicalRequest,
  maxLines = 8,
): Mismatch | undefined {
  const differences = diff(
    recorded as unknown as Record<string, unknown>,
    requested as unknown as Record<string, unknown>,
  ).sort(byImportance);
  const first = differences[0];
  if (!first) return undefined;
  const lines = differences
    .slice(0, maxLines)
    .map((difference) => `${formatPath(difference.path)}: ${describe(difference)}`);
  if (differences.length > maxLines)
    lines.push(`… ${differences.length - maxLines} more difference(s)`);
  return { field: formatPath(first.path), distance: differences.length, lines };
}

function byImportance(a: Difference, b: Difference): number {
  const rank = (difference: Difference): number => {
    const [top, second] = difference.path;
    if (top !== 'body') return top === 'method' ? 0 : top === 'path' ? 1 : 2;
    const index = bodyOrder.indexOf(String(second));
    return 3 + (index === -1 ? bodyOrder.length : index);
  };
  const byRank = rank(a) - rank(b);
  if (byRank !== 0) return byRank;
  for (let i = 0; i < Math.min(a.path.length, b.path.length); i++) {
    const left = a.path[i];
    const right = b.path[i];
    if (left === right) continue;
    if (typeof left === 'number' && typeof right === 'number') return left - right;
    return String(left) < String(right) ? -1 : 1;
  }
  return a.path.length - b.path.length;
}

/** `body.messages[1].content` — the `body.` prefix dropped for readability. */
export function formatPath(path: readonly (string | number)[]): string {
  return jsonPathText(path[0] === 'body' ? path.slice(1) : path) || '(request)';
}

/** A JSON path as people write it: `messages[1].content`; a key that would read as path syntax is quoted (`a["b.c"]`). */
export function jsonPathText(path: readonly (string | number)[]): string {
  return path.reduce<string>(
    (text, part) =>
      typeof part === 'number'
        ? `${text}[${part}]`
        : part === '' || /[.[\]"]/.test(part)
          ? `${text}[${JSON.stringify(part)}]`
          : text
            ? `${text}.${part}`
            : part,
    '',
  );
}

function describe(difference: Difference): string {
  if (difference.type === 'CREATE') return `(absent) → ${show(difference.value)}`;
  if (difference.type === 'REMOVE') return `${show(difference.oldValue)} → (absent)`;
  return `${show(difference.oldValue)} → ${show(difference.value)}`;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
