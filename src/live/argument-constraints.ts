import { ownValue } from '../scoring/own.js';
import { numberOf } from '../scoring/match/match-value.js';
import { scoreCall } from '../scoring/score-call.js';
import type { MatchingStrategy, ScoreOptions } from '../scoring/types.js';
import type { JsonSchema, JsonValue, ToolCall } from '../trace/trace.js';
import { caseFor, nestedSchema, schemaAt } from './constraint-case.js';
import type { ArgumentConstraint, ArgumentsPolicy } from './policy-types.js';
import type { PolicyFailure } from './verdict-types.js';

/**
 * A call against an arguments policy: each constraint (present or required, within range,
 * matching by the scoring engine's matcher after the argument's own schema coerces it) is met or
 * is a failure naming its path, and the policy's score is the fraction met. `schema` is the
 * tool's declared schema, when the request declared one. Pure.
 */
export function argumentFailures(
  policy: ArgumentsPolicy,
  call: ToolCall,
  schema: JsonSchema | undefined,
  options: ScoreOptions,
): { score: number; failures: PolicyFailure[] } {
  const entries = preparedConstraints(policy);
  if (
    !call.arguments.ok ||
    call.arguments.value === null ||
    typeof call.arguments.value !== 'object' ||
    Array.isArray(call.arguments.value)
  ) {
    return {
      score: 0,
      failures: [
        {
          policy: policy.id,
          reason: 'invalid_json',
          message: call.arguments.ok
            ? 'the arguments are not a JSON object'
            : `the arguments are not JSON: ${call.arguments.error}`,
        },
      ],
    };
  }
  const args = call.arguments.value;
  const failures: PolicyFailure[] = [];
  for (const prepared of entries) {
    const { path, constraint } = prepared;
    const actual = valueAt(args, prepared.parts);
    if (actual === undefined) {
      if (constraint.required)
        failures.push({
          policy: policy.id,
          reason: 'missing_argument',
          message: `${path} is missing`,
          path,
        });
      continue;
    }
    // The arguments parsed once for every constraint, not re-parsed from the raw text per constraint.
    const problem = constraintProblem(prepared, actual, args, call, schema, options);
    if (problem) failures.push({ policy: policy.id, path, actual, ...problem });
  }
  return { score: (entries.length - failures.length) / entries.length, failures };
}

/**
 * A policy's argument constraints as each call evaluates them, prepared once per policy object
 * (a reload brings new ones): the path split, the matcher's strategy and expected value decided.
 */
interface PreparedConstraint {
  readonly path: string;
  readonly parts: readonly string[];
  readonly constraint: ArgumentConstraint;
  /** Undefined when the constraint only bounds a number. */
  readonly strategy: MatchingStrategy | undefined;
  readonly expected: JsonValue;
}

const prepared = new WeakMap<ArgumentsPolicy, readonly PreparedConstraint[]>();

function preparedConstraints(policy: ArgumentsPolicy): readonly PreparedConstraint[] {
  let found = prepared.get(policy);
  if (!found) {
    found = Object.entries(policy.arguments).map(([path, constraint]) => ({
      path,
      parts: path.split('.'),
      constraint,
      strategy:
        constraint.matching_strategy ??
        (constraint.any_of ? 'any_of' : constraint.pattern !== undefined ? 'regex' : undefined),
      expected: constraint.value ?? constraint.any_of?.[0] ?? constraint.pattern ?? null,
    }));
    prepared.set(policy, found);
  }
  return found;
}

function constraintProblem(
  { path, parts, constraint, strategy, expected }: PreparedConstraint,
  actual: JsonValue,
  actualArguments: { readonly [key: string]: JsonValue },
  call: ToolCall,
  schema: JsonSchema | undefined,
  options: ScoreOptions,
): Omit<PolicyFailure, 'policy' | 'path' | 'actual'> | undefined {
  if (constraint.min !== undefined || constraint.max !== undefined) {
    const number = numberOf(actual);
    if (number === undefined)
      return {
        reason: 'not_a_number',
        message: `${path} is ${JSON.stringify(actual)}, not a number`,
      };
    if (constraint.min !== undefined && number < constraint.min)
      return {
        reason: 'out_of_range',
        message: `${path} is ${number}, below the minimum ${constraint.min}`,
        expected: { min: constraint.min },
      };
    if (constraint.max !== undefined && number > constraint.max)
      return {
        reason: 'out_of_range',
        message: `${path} is ${number}, above the maximum ${constraint.max}`,
        expected: { max: constraint.max },
      };
  }
  if (strategy === undefined) return undefined;
  // The call scorer applies the rule exactly as in ground-truth cases: coercion by the argument's own schema, normalisers,
  // matcher. Only that argument's schema goes in: the schema policy judges the rest of the call.
  const own = schemaAt(schema, parts);
  const result = scoreCall(
    caseFor(constraint, strategy, path, call.name, expected),
    [{ name: call.name, arguments: actualArguments }],
    own ? withSchema(options, call.name, nestedSchema(path, own)) : options,
  );
  const mismatch = ownValue(result.mismatches, path);
  // Without an embedding nothing was decided: that is no verdict on the agent.
  if (result.is_correct || mismatch?.reason === 'embedding_unavailable') return undefined;
  const wanted = constraint.any_of
    ? `one of ${JSON.stringify(constraint.any_of)}`
    : strategy === 'regex'
      ? `matching /${constraint.pattern ?? ''}/`
      : `${strategy} ${JSON.stringify(expected)}`;
  const why = mismatch
    ? mismatch.detail
      ? ` (${mismatch.detail})`
      : ''
    : ` (${result.error_message ?? 'it does not fit its declared schema'})`;
  return {
    reason: 'value_mismatch',
    message: `${path} is ${JSON.stringify(actual)}, not ${wanted}${why}`,
    expected: constraint.any_of ? [...constraint.any_of] : expected,
  };
}

/**
 * The score options with the argument's own schema. Without embeddings (almost every call) the
 * options object is made once per tool and schema, not per constraint and call: the nested
 * schema is already one object per text (`nestedSchema`).
 */
const plainOptions = new WeakMap<JsonSchema, Map<string, ScoreOptions>>();

function withSchema(options: ScoreOptions, tool: string, nested: JsonSchema): ScoreOptions {
  if (Object.keys(options).length > 0) return { ...options, schemas: { [tool]: nested } };
  let byTool = plainOptions.get(nested);
  if (!byTool) plainOptions.set(nested, (byTool = new Map<string, ScoreOptions>()));
  let made = byTool.get(tool);
  if (!made) byTool.set(tool, (made = { schemas: { [tool]: nested } }));
  return made;
}

function valueAt(
  value: { readonly [key: string]: JsonValue },
  parts: readonly string[],
): JsonValue | undefined {
  let current: JsonValue | undefined = value;
  for (const part of parts) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    // Own properties only: a policy path such as `constructor` must not read Object's.
    current = Object.hasOwn(current, part)
      ? (current as { readonly [key: string]: JsonValue })[part]
      : undefined;
  }
  return current;
}
