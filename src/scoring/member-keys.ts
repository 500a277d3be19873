import type { JsonValue } from '../trace/trace.js';
import { ruleAt, standsAlone, type RuleTable } from './rule-table.js';

export type JsonObject = { readonly [key: string]: JsonValue };

/**
 * The arguments an object is scored on, sorted: the expected ones, those a rule checks on its own
 * (acceptable values, a pattern, a range) even when the expectation leaves them out, and actual
 * arguments a glob rule of that kind covers. Shared by the reference and the compiled scorer.
 */
export function memberKeys(
  expected: JsonObject,
  actual: JsonObject,
  rules: RuleTable,
  parent: string,
): string[] {
  const keys = Object.keys(expected);
  const alone = rules.standalone.get(parent);
  if (alone === undefined && !rules.globStandalone) return keys.sort();
  const all = new Set(keys);
  for (const key of alone ?? []) all.add(key);
  if (rules.globStandalone) {
    for (const key of Object.keys(actual)) {
      const rule = ruleAt(rules, `${parent}${key}`);
      if (rule !== undefined && standsAlone(rule)) all.add(key);
    }
  }
  return [...all].sort();
}

/** `{ "$omitted": true }`: the marker for an argument that may (or must) be absent. */
export function isOmittedMarker(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.hasOwn(value, '$omitted') &&
    (value as Record<string, unknown>)['$omitted'] === true
  );
}

export function asObject(value: JsonValue | undefined): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}
