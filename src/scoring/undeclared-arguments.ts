import type { JsonSchema, JsonValue } from '../trace/trace.js';
import type { JsonObject } from './member-keys.js';
import { hasOwn, ownEnumerated } from './own.js';
import type { RuleTable } from './rule-table.js';
import type { ExtraPolicy, Mismatch, TestCase } from './types.js';

/**
 * How extra arguments count for one call: `schema` (the default) is `ignore` where the call's
 * tool has a declared schema — whose own check, plus `undeclaredArguments`, then decides — and
 * `fail` where none is known.
 */
export function extraPolicyFor(
  policy: TestCase['extra_arguments'],
  declared: JsonSchema | undefined,
): ExtraPolicy {
  const chosen = policy ?? 'schema';
  if (chosen !== 'schema') return chosen;
  return declared === undefined ? 'fail' : 'ignore';
}

/**
 * Under `extra_arguments: schema`, the top-level arguments a call sent that neither the case
 * mentions (an expected value or a rule) nor the tool's schema declares (`properties`,
 * `patternProperties`), in the order sent. A declared argument the case leaves out is accepted:
 * the agent may use its tool's parameters; one the tool never declared is a made-up argument.
 */
export function undeclaredArguments(
  sent: JsonObject,
  expected: JsonObject,
  rules: RuleTable,
  declared: JsonSchema,
): readonly string[] {
  const properties = declared['properties'];
  let found: string[] | undefined;
  // for…in without a key list: nearly every call sends only arguments the case or schema names.
  for (const key in sent) {
    if (!ownEnumerated(sent, key) || hasOwn(expected, key)) continue;
    if (isObject(properties) && hasOwn(properties, key)) continue;
    if (declaredByPattern(declared, key) || mentionedByRule(rules, key)) continue;
    (found ??= []).push(key);
  }
  return found ?? none;
}

const none: readonly string[] = [];

function declaredByPattern(declared: JsonSchema, key: string): boolean {
  const patterns = declared['patternProperties'];
  return isObject(patterns) && Object.keys(patterns).some((pattern) => matches(pattern, key));
}

/** The mismatch recorded for an undeclared argument: the words say it is the schema, not the case, that lacks it. */
export function undeclaredMismatch(actual: JsonValue | undefined): Mismatch {
  return {
    expected: undefined,
    actual,
    reason: 'unexpected_argument',
    strategy: 'exact',
    score: 0,
    detail: "the tool's schema does not declare it",
  };
}

/** A rule on the argument itself or anything inside it (`address.city`, `items[].sku`), exact or glob. */
function mentionedByRule(rules: RuleTable, key: string): boolean {
  for (const path of rules.exact.keys())
    if (path === key || path.startsWith(`${key}.`) || path.startsWith(`${key}[`)) return true;
  return rules.globs.some((glob) => glob.pattern.test(key));
}

function matches(pattern: string, key: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(key);
  } catch {
    return false;
  }
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
