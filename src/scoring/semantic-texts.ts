import type { JsonValue } from '../trace/trace.js';
import { parseCallArguments } from './parse-arguments.js';
import type { ActualCall, TestCase } from './types.js';

/**
 * The texts `semantic` rules of a case will compare — expected and actual values at those rules'
 * paths — so their embeddings can be fetched (and cached) before the synchronous scoring.
 */
export function semanticTexts(testCase: TestCase, actualCalls: readonly ActualCall[]): string[] {
  const expectations = [...(testCase.expected_calls ?? (testCase.expected_tool !== undefined && testCase.expected_tool !== null ? [testCase] : [])), ...(testCase.alternatives ?? [])];
  const texts = new Set<string>();
  for (const expectation of expectations) {
    for (const [path, rule] of Object.entries(expectation.rules ?? {})) {
      if (rule.matching_strategy !== 'semantic') continue;
      for (const value of [...valuesAt(expectation.arguments ?? {}, path), ...(rule.any_of ?? [])]) if (typeof value === 'string') texts.add(value);
      for (const call of actualCalls) {
        const parsed = parseCallArguments(call);
        if (parsed.ok) for (const value of valuesAt(parsed.value, path)) if (typeof value === 'string') texts.add(value);
      }
    }
  }
  return [...texts].sort();
}

/** Values at a rule path (`a.b`, `items[].sku`) in an arguments object. */
function valuesAt(root: JsonValue, path: string): JsonValue[] {
  let current: JsonValue[] = [root];
  for (const part of path.split('.')) {
    const each = part.endsWith('[]');
    const key = each ? part.slice(0, -2) : part;
    const next: JsonValue[] = [];
    for (const value of current) {
      if (typeof value !== 'object' || value === null || Array.isArray(value) || !(key in value)) continue;
      const child = value[key] as JsonValue;
      if (each && Array.isArray(child)) next.push(...child);
      else if (!each) next.push(child);
    }
    current = next;
  }
  return current;
}
