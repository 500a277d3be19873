import { CalltapeError } from '../../errors.js';
import type { JsonValue } from '../../trace/trace.js';

/** ADK's trajectory match types (`tool_trajectory_avg_score.match_type`). */
export type AdkMatchType = 'EXACT' | 'IN_ORDER' | 'ANY_ORDER';

/** One criterion of `test_config.json`: its name, threshold and the rest of its settings. */
export interface AdkCriterion {
  readonly name: string;
  readonly threshold: number;
  readonly matchType: AdkMatchType | undefined;
  /** Where it is: `test_config.json: criteria.response_match_score`. */
  readonly item: string;
}

/** What `test_config.json` says, or ADK's defaults when there is none. */
export interface AdkCriteria {
  readonly criteria: readonly AdkCriterion[];
  /** `user_simulator_config`: the model and invocation cap for simulated users. */
  readonly simulator:
    { readonly model: string | undefined; readonly maxInvocations: number | undefined } | undefined;
  /** Whether the criteria are ADK's defaults (no test_config.json beside the file). */
  readonly defaults: boolean;
}

/** ADK's criteria when no test_config.json is found (AgentEvaluator's defaults). */
const defaultCriteria: readonly AdkCriterion[] = [
  {
    name: 'tool_trajectory_avg_score',
    threshold: 1,
    matchType: undefined,
    item: '(ADK default) tool_trajectory_avg_score',
  },
  {
    name: 'response_match_score',
    threshold: 0.8,
    matchType: undefined,
    item: '(ADK default) response_match_score',
  },
];

const matchTypes = new Set<string>(['EXACT', 'IN_ORDER', 'ANY_ORDER']);

/**
 * Reads an ADK `test_config.json`: `criteria` maps a metric to a threshold, or to an object with
 * `threshold` (and, for the tool trajectory, `match_type`). Bad input names the file and field.
 */
export function readAdkCriteria(value: JsonValue | undefined, file: string): AdkCriteria {
  if (value === undefined)
    return { criteria: defaultCriteria, simulator: undefined, defaults: true };
  const fail = (path: string, expected: string): never => {
    throw new CalltapeError('CONFIG_INVALID', `${file}: ${path}: ${expected}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('$', 'expected an object with criteria');
  const criteria = Object.hasOwn(value, 'criteria') ? value['criteria'] : undefined;
  if (typeof criteria !== 'object' || criteria === null || Array.isArray(criteria))
    return fail('$.criteria', 'missing or not an object of metric → threshold');
  const read = Object.entries(criteria).map(([name, setting]): AdkCriterion => {
    const path = `$.criteria.${name}`;
    if (typeof setting === 'number')
      return { name, threshold: setting, matchType: undefined, item: `${file}: criteria.${name}` };
    if (typeof setting !== 'object' || setting === null || Array.isArray(setting))
      return fail(path, 'expected a threshold or an object with threshold');
    const threshold = Object.hasOwn(setting, 'threshold') ? setting['threshold'] : undefined;
    if (typeof threshold !== 'number') return fail(`${path}.threshold`, 'missing or not a number');
    const match = Object.hasOwn(setting, 'match_type') ? setting['match_type'] : undefined;
    if (match !== undefined && (typeof match !== 'string' || !matchTypes.has(match)))
      return fail(`${path}.match_type`, 'expected EXACT, IN_ORDER or ANY_ORDER');
    return {
      name,
      threshold,
      matchType: match as AdkMatchType | undefined,
      item: `${file}: criteria.${name}`,
    };
  });
  const simulator = Object.hasOwn(value, 'user_simulator_config')
    ? value['user_simulator_config']
    : undefined;
  const simulated =
    typeof simulator === 'object' && simulator !== null && !Array.isArray(simulator)
      ? {
          model: typeof simulator['model'] === 'string' ? simulator['model'] : undefined,
          maxInvocations:
            typeof simulator['max_allowed_invocations'] === 'number'
              ? simulator['max_allowed_invocations']
              : undefined,
        }
      : undefined;
  return { criteria: read, simulator: simulated, defaults: false };
}
