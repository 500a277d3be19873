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
  /** What the first differing part is, in words (`the system prompt`, `the model`); null when it has no such name. */
  readonly meaning: string | null;
}

/** Why a request found no recording: what a run's report groups its replay misses by. */
export interface MissCause {
  /** The first request path that differed from the nearest recording (`messages[0].content`); null when no recording was near (or the request was asked more often than recorded). */
  readonly field: string | null;
  /** That part of the request in words (`the system prompt`), or why no path could be named; null when nothing more is known. */
  readonly meaning: string | null;
  /** The first difference itself, `messages[0].content: "recorded" → "requested"` (shortened); not part of the cause, an example of it. */
  readonly difference?: string;
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
  return {
    field: formatPath(first.path),
    distance: differences.length,
    lines,
    meaning: partMeaning(recorded.body, first.path),
  };
}

/** Top-level body keys that hold the system prompt, per wire (Anthropic, Responses, Gemini). */
const systemKeys = new Set(['system', 'instructions', 'systemInstruction', 'system_instruction']);

/**
 * The request part a path falls in, in the words a person changed it by: the system prompt (a
 * top-level field, or a leading system/developer message) or the model.
 */
function partMeaning(body: unknown, path: readonly (string | number)[]): string | null {
  if (path[0] !== 'body') return null;
  const [, key, index] = path;
  if (key === 'model') return 'the model';
  if (typeof key === 'string' && systemKeys.has(key)) return 'the system prompt';
  if ((key === 'messages' || key === 'input') && typeof index === 'number') {
    const list = ownValue(body, key);
    const role = ownValue(Array.isArray(list) ? (list as unknown[])[index] : undefined, 'role');
    if (role === 'system' || role === 'developer') return 'the system prompt';
  }
  return null;
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

/** A JSON object's own property (never one inherited from its prototype); undefined for anything else. */
function ownValue(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
  return (value as Record<string, unknown>)[key];
}
