import fnv1a from '@sindresorhus/fnv1a';
import { stableStringify } from '../../stable-stringify.js';
import type { JsonValue } from '../../trace/trace.js';

/** Marks an id calltape gave a call that came without one (never sent upstream as an `id`). */
const prefix = 'gemini-';

/**
 * Ids for a turn's function calls. Gemini sends `functionCall.id` only on some models; without one
 * a call is answered by name (`functionResponse.name`), in order. calltape's mocks, results and
 * conversation keys need an id per call, so a call without one gets an id made from its name and
 * arguments (key order aside), numbered when the same call repeats in the turn: the answer and the
 * agent's echo of it name the call alike, whatever else the agent drops from the turn.
 */
export function geminiCallIds(
  calls: readonly {
    readonly id: string | undefined;
    readonly name: string;
    readonly args: JsonValue;
  }[],
): string[] {
  const seen = new Map<string, number>();
  return calls.map((call) => {
    if (call.id !== undefined) return call.id;
    const base = `${prefix}${fnv1a(`${call.name}\u0000${argumentText(call.args)}`, { size: 64 }).toString(16)}`;
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  });
}

/** Whether calltape made this id up (so it is not the provider's, and never goes upstream). */
export function isMadeUpCallId(id: string): boolean {
  return id.startsWith(prefix);
}

function argumentText(args: JsonValue): string {
  try {
    return stableStringify(args);
  } catch {
    // Nesting deeper than the stack allows (hostile input only): the name alone still names the call.
    return '';
  }
}
