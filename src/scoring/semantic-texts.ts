import { valuesAt } from './argument-paths.js';
import { parseCallArguments } from './parse-arguments.js';
import type { ActualCall, TestCase } from './types.js';

/**
 * The texts `semantic` rules of a case will compare — expected and actual values at those rules'
 * paths — so their embeddings can be fetched (and cached) before the synchronous scoring.
 */
export function semanticTexts(testCase: TestCase, actualCalls: readonly ActualCall[]): string[] {
  const expectations = [
    ...(testCase.expected_calls ??
      (testCase.expected_tool !== undefined && testCase.expected_tool !== null ? [testCase] : [])),
    ...(testCase.alternatives ?? []),
  ];
  const texts = new Set<string>();
  for (const expectation of expectations) {
    for (const [path, rule] of Object.entries(expectation.rules ?? {})) {
      if (rule.matching_strategy !== 'semantic') continue;
      for (const value of [...valuesAt(expectation.arguments ?? {}, path), ...(rule.any_of ?? [])])
        if (typeof value === 'string') texts.add(value);
      for (const call of actualCalls) {
        const parsed = parseCallArguments(call);
        if (parsed.ok)
          for (const value of valuesAt(parsed.value, path))
            if (typeof value === 'string') texts.add(value);
      }
    }
  }
  return [...texts].sort();
}
