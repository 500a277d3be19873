import { compileCase } from './compile-case.js';
import type { ActualCall, ScoreOptions, ScoreResult, TestCase } from './types.js';
import { checkKeys, invalid, isRecord } from './validate-case.js';

const optionKeys = ['schemas', 'now', 'embeddings', 'normalisers'];

/**
 * Scores the calls an agent made against a test case: the right tool(s), the right arguments
 * (after schema coercion and normalisation, matched per argument by its strategy, weighted),
 * explained per argument path. Parallel expected calls are paired with actual calls by the
 * maximum-weight one-to-one assignment, so the order calls arrive in never changes a score.
 * Pure and deterministic: the same input (and clock) gives byte-identical JSON.
 *
 * The case is checked the first time it is seen and compiled the second (cached by object): an
 * unknown key anywhere in it or in `options`, a rule that needs an expected value and has none, or
 * a schema that does not compile throws a `CalltapeError` (`CONFIG_INVALID`) naming the path and
 * the key.
 */
export function scoreCall(
  testCase: TestCase,
  actualCalls: readonly ActualCall[],
  options: ScoreOptions = {},
): ScoreResult {
  checkOptions(options);
  if (!Array.isArray(actualCalls))
    throw invalid(
      'scoreCall',
      `actual calls must be a list of { name, arguments } (got ${JSON.stringify(actualCalls)?.slice(0, 80)})`,
    );
  return compileCase(testCase).score(actualCalls, options);
}

/** The options a library caller passes, checked on every call (they are usually a fresh object). */
export function checkOptions(options: ScoreOptions, extra: readonly string[] = []): void {
  checkKeys(
    options,
    extra.length === 0 ? optionKeys : [...optionKeys, ...extra],
    'scoreCall options',
  );
  if (options.now !== undefined && !(options.now instanceof Date))
    throw invalid('scoreCall options.now', 'must be a Date');
  if (options.schemas !== undefined && !isRecord(options.schemas))
    throw invalid(
      'scoreCall options.schemas',
      "must be an object of JSON Schemas by tool name (for a request's tools: schemasFromTools(tools))",
    );
}
