import { stableStringify } from '../stable-stringify.js';
import type { JsonValue } from '../trace/trace.js';
import { renderStateKey, renderTemplate, type TemplateSource } from './render-template.js';

/** State keys to values, as a mock file writes them (`set:`, `when[].state`); keys and values are templates. */
export interface StateEntries {
  readonly [key: string]: JsonValue;
}

/**
 * Whether the session's state holds every listed value (`when[].state`): keys and values are
 * filled from the call first; a key never set reads as null, so `{ key: null }` means "not set".
 * Compared as JSON, object keys in any order. A call lacking a templated argument never holds.
 */
export function stateHolds(conditions: StateEntries, source: TemplateSource): boolean {
  for (const [template, expected] of Object.entries(conditions)) {
    const key = renderStateKey(template, source);
    const value = renderTemplate(expected, source);
    if (key === undefined || !value.ok) return false;
    const actual = source.state?.get(key) ?? null;
    if (stableStringify(actual) !== stableStringify(value.value)) return false;
  }
  return true;
}

/**
 * What a call changes: each `set` in order (later ones win), keys and values filled from the
 * call and the state before it. `missing` names an argument a template needs and the call lacks.
 */
export function stateChanges(
  sets: readonly (StateEntries | undefined)[],
  source: TemplateSource,
):
  | { readonly ok: true; readonly changes: Map<string, JsonValue> }
  | { readonly ok: false; readonly missing: string } {
  const changes = new Map<string, JsonValue>();
  for (const set of sets)
    for (const [template, value] of Object.entries(set ?? {})) {
      const key = renderStateKey(template, source);
      if (key === undefined) return { ok: false, missing: missingArgument(template, source) };
      const rendered = renderTemplate(value, source);
      if (!rendered.ok) return rendered;
      changes.set(key, rendered.value);
    }
  return { ok: true, changes };
}

function missingArgument(template: string, source: TemplateSource): string {
  const rendered = renderTemplate(template, source);
  return rendered.ok ? template : rendered.missing;
}
