import diff from 'microdiff';
import { formatPath } from '../cassette/describe-mismatch.js';
import type { JsonValue } from '../trace/trace.js';
import type { JsonRpcError } from './json-rpc.js';

/** An answer as compared: a result or a JSON-RPC error. */
export interface ComparedAnswer {
  readonly result?: JsonValue | undefined;
  readonly error?: JsonRpcError | undefined;
}

/** Differences shown per answer at most; the rest are counted. */
const maxLines = 10;

/**
 * How a live answer differs from its recording, one line per differing leaf
 * (`result.content[0].text: "5" → "6"`); empty when they are the same. Both sides have passed
 * the same redaction, so a credential never makes a difference appear.
 */
export function diffMcpAnswers(recorded: ComparedAnswer, live: ComparedAnswer): string[] {
  const differences = diff(shape(recorded), shape(live));
  const lines = differences.slice(0, maxLines).map((difference) => {
    const before = difference.type === 'CREATE' ? '(absent)' : show(difference.oldValue);
    const after = difference.type === 'REMOVE' ? '(absent)' : show(difference.value);
    return `${formatPath(difference.path)}: ${before} → ${after}`;
  });
  if (differences.length > maxLines) lines.push(`… and ${differences.length - maxLines} more`);
  return lines;
}

function shape(answer: ComparedAnswer): Record<string, unknown> {
  return answer.error ? { error: answer.error } : { result: answer.result ?? null };
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
