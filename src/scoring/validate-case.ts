import { CalltapeError } from '../errors.js';
import type { JsonValue } from '../trace/trace.js';
import { valuesAt } from './argument-paths.js';
import { compileUserPattern } from './match/user-pattern.js';
import { isGlob, standsAlone } from './rule-table.js';
import type { ArgumentRule } from './types.js';
import { schemaCompileError } from './validate-arguments.js';

/** Everything a rule may say; anything else is a typo the scorer would otherwise ignore (`values`, `optional`, `strategy`). */
const ruleKeys = [
  'matching_strategy',
  'threshold',
  'algorithm',
  'tolerance',
  'relative_tolerance',
  'min',
  'max',
  'pattern',
  'flags',
  'any_of',
  'unordered',
  'weight',
  'critical',
  'normalise',
  'country',
];
const strategies = [
  'exact',
  'ignore_case',
  'loose_string',
  'substring',
  'regex',
  'fuzzy',
  'numeric',
  'datetime',
  'semantic',
  'any_of',
  'ignore',
];
const callKeys = ['expected_tool', 'arguments', 'rules', 'alternatives'];
const alternativeKeys = ['tool', 'arguments', 'rules'];
/** A case's own fields, its trajectory checks (scored by scoreTrajectory) and the fields a suite adds to a case. */
const caseKeys = [
  'test_id',
  'prompt',
  'description',
  'expected_tool',
  'arguments',
  'rules',
  'alternatives',
  'expected_calls',
  'extra_arguments',
  'multiple_calls',
  'pass_threshold',
  'schemas',
  'expect',
  'never',
  'judge',
  'tags',
  'mocks',
  'messages',
  'turns',
  'review',
  'provenance',
];

/**
 * A problem in a case, as `test case "TC-7": rules.query: what`. A location ending in `:` is a
 * label with no path yet (`test case "TC-7":`); `at` extends either with a key.
 */
export function invalid(where: string, message: string): CalltapeError {
  return new CalltapeError(
    'CONFIG_INVALID',
    where.endsWith(':') ? `${where} ${message}` : `${where}: ${message}`,
    'See config/test-case.schema.json and docs/scoring.md for every field.',
  );
}

export function at(where: string, key: string): string {
  return where.endsWith(':') ? `${where} ${key}` : `${where}.${key}`;
}

export function isRecord(value: unknown): value is { readonly [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Throws naming the path and the first key that is not one of `known`. */
export function checkKeys(value: unknown, known: readonly string[], where: string): void {
  if (!isRecord(value))
    throw invalid(where, `must be an object (got ${JSON.stringify(value)?.slice(0, 80)})`);
  // for…in: scoreCall checks its options on every call, and this allocates nothing.
  for (const key in value)
    if (Object.hasOwn(value, key) && !known.includes(key))
      throw invalid(where, `unknown key "${key}" (known: ${known.join(', ')})`);
}

function checkEnum(value: unknown, allowed: readonly string[], where: string): void {
  if (value !== undefined && (typeof value !== 'string' || !allowed.includes(value)))
    throw invalid(where, `must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
}

function checkNumber(value: unknown, where: string, min?: number, max?: number): void {
  if (value === undefined) return;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    (min !== undefined && value < min) ||
    (max !== undefined && value > max)
  )
    throw invalid(
      where,
      `must be a number${min !== undefined ? ` ≥ ${min}` : ''}${max !== undefined ? ` ≤ ${max}` : ''} (got ${JSON.stringify(value)})`,
    );
}

/** The tool (or tools) a call expectation names: a non-empty string or list of them. */
export function checkToolNames(value: unknown, where: string, nullable: boolean): void {
  if (value === null && nullable) return;
  const names = Array.isArray(value) ? (value as unknown[]) : [value];
  if (names.length === 0 || names.some((name) => typeof name !== 'string' || name === ''))
    throw invalid(
      where,
      `must be a tool name or a non-empty list of names (got ${JSON.stringify(value)})`,
    );
}

/**
 * One rule set against the expected arguments beside it: known keys with values of the right
 * kind, regexes that compile, and an expected value for every rule that needs one (a rule that
 * stands alone — acceptable values, a pattern, a range — or `ignore` needs none).
 */
export function checkRules(rules: unknown, args: JsonValue | undefined, where: string): void {
  if (rules === undefined) return;
  if (!isRecord(rules)) throw invalid(where, 'must be an object of rules by argument path');
  for (const path of Object.keys(rules)) {
    const rulePath = at(where, path);
    const rule = rules[path] as unknown;
    checkKeys(rule, ruleKeys, rulePath);
    const {
      matching_strategy: strategy,
      threshold,
      tolerance,
      relative_tolerance: relative,
      min,
      max,
      weight,
      pattern,
      flags,
      any_of: anyOf,
      normalise,
      algorithm,
      country,
    } = rule as ArgumentRule;
    checkEnum(strategy, strategies, `${rulePath}.matching_strategy`);
    checkEnum(algorithm, ['levenshtein', 'jaro_winkler'], `${rulePath}.algorithm`);
    checkNumber(threshold, `${rulePath}.threshold`, 0, 1);
    checkNumber(tolerance, `${rulePath}.tolerance`, 0);
    checkNumber(relative, `${rulePath}.relative_tolerance`, 0);
    checkNumber(weight, `${rulePath}.weight`, 0);
    checkNumber(min, `${rulePath}.min`);
    checkNumber(max, `${rulePath}.max`);
    if (min !== undefined && max !== undefined && min > max)
      throw invalid(`${rulePath}.min`, `${min} is above max ${max}`);
    if ((min !== undefined || max !== undefined) && strategy !== 'numeric')
      throw invalid(rulePath, 'min and max need matching_strategy: numeric');
    if (anyOf !== undefined && !Array.isArray(anyOf))
      throw invalid(`${rulePath}.any_of`, 'must be a list of acceptable values');
    if (
      normalise !== undefined &&
      (!Array.isArray(normalise) || normalise.some((name) => typeof name !== 'string'))
    )
      throw invalid(`${rulePath}.normalise`, 'must be a list of normaliser names');
    if (country !== undefined && (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country)))
      throw invalid(
        `${rulePath}.country`,
        `must be an ISO 3166 alpha-2 code (got ${JSON.stringify(country)})`,
      );
    if (flags !== undefined && (typeof flags !== 'string' || !/^[imsu]*$/.test(flags)))
      throw invalid(
        `${rulePath}.flags`,
        `must be regex flags from i, m, s, u (got ${JSON.stringify(flags)})`,
      );
    if (pattern !== undefined) {
      if (typeof pattern !== 'string') throw invalid(`${rulePath}.pattern`, 'must be a string');
      try {
        // The engine scoring runs it on: a pattern RE2 cannot run is refused here, not mid-run.
        compileUserPattern(pattern, flags ?? '');
      } catch (error) {
        throw invalid(
          `${rulePath}.pattern`,
          `the regex does not compile: ${(error as Error).message}`,
        );
      }
    }
    if (isGlob(path) || strategy === 'ignore') continue;
    const typed = rule as ArgumentRule;
    const present = valuesAt(args ?? {}, path).length > 0;
    if (!standsAlone(typed) && !present) {
      throw invalid(
        rulePath,
        `${strategy ?? 'exact'} compares with an expected value, and arguments.${path} has none: give one, or a rule that stands alone (any_of, regex with pattern, numeric with min/max)`,
      );
    }
    const parent = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : undefined;
    if (!present && parent !== undefined && valuesAt(args ?? {}, parent).length === 0)
      throw invalid(
        rulePath,
        `the rule is checked inside arguments.${parent}, which the expectation does not give (give it, e.g. as {})`,
      );
  }
}

/** The JSON Schemas by tool name a case (or the options) carries: objects that compile. */
export function checkSchemas(schemas: unknown, where: string): void {
  if (schemas === undefined) return;
  if (!isRecord(schemas)) throw invalid(where, 'must be an object of JSON Schemas by tool name');
  for (const tool of Object.keys(schemas)) {
    const schema = schemas[tool];
    if (!isRecord(schema)) throw invalid(at(where, tool), 'must be a JSON Schema object');
    const error = schemaCompileError(schema);
    if (error !== undefined)
      throw invalid(at(where, tool), `the schema does not compile: ${error}`);
  }
}

function checkExpectedCall(call: unknown, where: string, keys: readonly string[]): void {
  checkKeys(call, keys, where);
  const record = call as { readonly [key: string]: JsonValue };
  checkToolNames(record['expected_tool'], at(where, 'expected_tool'), keys === caseKeys);
  if (record['arguments'] !== undefined && !isRecord(record['arguments']))
    throw invalid(at(where, 'arguments'), 'must be an object of expected arguments');
  checkRules(record['rules'], record['arguments'], at(where, 'rules'));
  const alternatives = record['alternatives'];
  if (alternatives === undefined) return;
  if (!Array.isArray(alternatives)) throw invalid(at(where, 'alternatives'), 'must be a list');
  alternatives.forEach((alternative, index) => {
    const alternativePath = at(where, `alternatives[${index}]`);
    checkKeys(alternative, alternativeKeys, alternativePath);
    const fields = alternative as { readonly [key: string]: JsonValue };
    checkToolNames(fields['tool'], `${alternativePath}.tool`, false);
    if (Array.isArray(fields['tool']))
      throw invalid(`${alternativePath}.tool`, 'must be one tool name');
    checkRules(fields['rules'], fields['arguments'], `${alternativePath}.rules`);
  });
}

/** A `scoreCall` test case, checked whole; `where` names it in messages (`test case "TC-7"`). */
export function checkTestCase(testCase: unknown, where: string): void {
  checkKeys(testCase, caseKeys, where);
  const record = testCase as { readonly [key: string]: JsonValue };
  const calls = record['expected_calls'];
  if (calls !== undefined) {
    if (!Array.isArray(calls))
      throw invalid(at(where, 'expected_calls'), 'must be a list of expected calls');
    calls.forEach((call, index) =>
      checkExpectedCall(call, at(where, `expected_calls[${index}]`), callKeys),
    );
  }
  if (record['expected_tool'] !== undefined) checkExpectedCall(testCase, where, caseKeys);
  else if (record['rules'] !== undefined || record['alternatives'] !== undefined)
    checkRules(record['rules'], record['arguments'], at(where, 'rules'));
  checkEnum(
    record['extra_arguments'],
    ['schema', 'ignore', 'penalize', 'fail'],
    at(where, 'extra_arguments'),
  );
  checkEnum(
    record['multiple_calls'],
    ['first', 'best', 'all', 'penalize'],
    at(where, 'multiple_calls'),
  );
  checkNumber(record['pass_threshold'], at(where, 'pass_threshold'), 0, 1);
  checkSchemas(record['schemas'], at(where, 'schemas'));
}
