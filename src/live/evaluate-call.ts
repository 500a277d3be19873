import { schemaViolation } from '../scoring/validate-arguments.js';
import { expectationObject, matchCall } from '../scoring/trajectory/match-expectation.js';
import type { ScoreOptions } from '../scoring/types.js';
import type { ToolCall } from '../trace/trace.js';
import type { TrajectoryCall } from '../trace/trajectory.js';
import { argumentFailures } from './argument-constraints.js';
import type { DeclaredSchemas } from './declared-schemas.js';
import type { CallPolicy } from './policy-types.js';
import { sampled } from './sample.js';
import type { PolicyFailure } from './verdict-types.js';

export interface CallEvaluation {
  readonly evaluated: readonly string[];
  readonly failures: readonly PolicyFailure[];
  readonly score: number;
}

/**
 * Scores one live call against the call policies, with no ground truth: the schema the request
 * declared for the tool, per-argument constraints (the scoring engine's matchers), forbidden
 * tools and allow-lists. Pure: `sampleKey` identifies the call for deterministic sampling.
 * `declared` is a `Map`: tool names come from the model and are read as data.
 */
export function evaluateCall(
  policies: readonly CallPolicy[],
  call: ToolCall,
  declared: DeclaredSchemas | undefined,
  sampleKey: string,
  options: ScoreOptions = {},
): CallEvaluation {
  const evaluated: string[] = [];
  const failures: PolicyFailure[] = [];
  let total = 0;
  for (const policy of policies) {
    if (!applies(policy, call.name) || !sampled(policy.sample, policy.id, sampleKey)) continue;
    evaluated.push(policy.id);
    const found = failuresOf(policy, call, declared, options);
    total += found.score;
    failures.push(...found.failures);
  }
  return {
    evaluated,
    failures,
    score: evaluated.length === 0 ? 1 : Math.round((total / evaluated.length) * 1e9) / 1e9,
  };
}

function applies(policy: CallPolicy, tool: string): boolean {
  if (policy.kind === 'schema') return policy.tools === undefined || policy.tools.includes(tool);
  if (policy.kind === 'arguments')
    return typeof policy.tool === 'string' ? policy.tool === tool : policy.tool.includes(tool);
  return true;
}

function failuresOf(
  policy: CallPolicy,
  call: ToolCall,
  declared: DeclaredSchemas | undefined,
  options: ScoreOptions,
): { score: number; failures: PolicyFailure[] } {
  const fail = (
    failure: Omit<PolicyFailure, 'policy'>,
  ): { score: number; failures: PolicyFailure[] } => ({
    score: 0,
    failures: [{ policy: policy.id, ...failure }],
  });
  switch (policy.kind) {
    case 'schema': {
      if (!call.complete)
        return fail({
          reason: 'incomplete_call',
          message: `the ${call.name || '(unnamed)'} call was cut off before the model finished it`,
        });
      const schema = declared?.get(call.name);
      if (!schema)
        return fail({
          reason: 'undeclared_tool',
          message: `${call.name} is not among the tools the request declared`,
        });
      if (!call.arguments.ok)
        return fail({
          reason: 'invalid_json',
          message: `the arguments are not JSON: ${call.arguments.error}`,
        });
      const violation = schemaViolation(schema, call.arguments.value);
      return violation === undefined
        ? pass
        : fail({
            reason: 'schema_violation',
            message: violation,
            path: violation.slice(0, violation.indexOf(':')),
          });
    }
    case 'arguments':
      return argumentFailures(policy, call, declared?.get(call.name), options);
    case 'never': {
      const made = asTrajectoryCall(call);
      for (const forbidden of policy.tools) {
        const expectation = expectationObject(forbidden);
        if (matchCall(expectation, made, options).matches) {
          const conditions =
            expectation.arguments === undefined && expectation.rules === undefined
              ? ''
              : ' with the forbidden arguments';
          return fail({
            reason: 'forbidden_call',
            message: `${call.name} was called${conditions}; policy ${policy.id} forbids it`,
          });
        }
      }
      return pass;
    }
    case 'allow':
      return policy.tools.includes(call.name)
        ? pass
        : fail({
            reason: 'unlisted_tool',
            message: `${call.name} is not on the allow-list (${policy.tools.join(', ')})`,
          });
  }
}

const pass = { score: 1, failures: [] };

function asTrajectoryCall(call: ToolCall): TrajectoryCall {
  return {
    id: call.id,
    name: call.name,
    argumentsRaw: call.argumentsRaw,
    arguments: call.arguments,
    complete: call.complete,
    turn: 0,
    index: call.index,
    step: 0,
    result: undefined,
    mocked: false,
  };
}
