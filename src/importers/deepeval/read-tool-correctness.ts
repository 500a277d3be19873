import type { JsonValue } from '../../trace/trace.js';
import { type Fail, objectAt, own } from '../source-json.js';

/** ToolCorrectnessMetric's options that decide what passes (DeepEval's defaults when not given). */
export interface ToolCorrectnessOptions {
  readonly threshold: number;
  readonly inputParameters: boolean;
  readonly output: boolean;
  readonly exactMatch: boolean;
  readonly ordering: boolean;
  readonly strict: boolean;
  /** False when no options file was given and DeepEval's defaults apply. */
  readonly given: boolean;
}

/** DeepEval's defaults: threshold 0.5, names only, any order. */
export const toolCorrectnessDefaults: ToolCorrectnessOptions = {
  threshold: 0.5,
  inputParameters: false,
  output: false,
  exactMatch: false,
  ordering: false,
  strict: false,
  given: false,
};

/**
 * Reads ToolCorrectnessMetric's constructor options as JSON (`--metric`): `threshold`,
 * `evaluation_params` (`input_parameters`, `output`, in any of DeepEval's spellings),
 * `should_exact_match`, `should_consider_ordering`, `strict_mode`; snake_case or the TypeScript
 * SDK's camelCase.
 */
export function readToolCorrectness(value: JsonValue, fail: Fail): ToolCorrectnessOptions {
  const options = objectAt(value, '$', fail);
  const flag = (name: string, alias: string): boolean => {
    const given = own(options, name, alias);
    if (given === undefined) return false;
    return typeof given === 'boolean' ? given : fail(`$.${name}`, 'expected true or false');
  };
  const threshold = own(options, 'threshold');
  if (
    threshold !== undefined &&
    threshold !== null &&
    (typeof threshold !== 'number' || threshold < 0 || threshold > 1)
  )
    return fail('$.threshold', 'expected a number from 0 to 1');
  const params = own(options, 'evaluation_params', 'evaluationParams') ?? [];
  if (!Array.isArray(params)) return fail('$.evaluation_params', 'expected a list');
  const names = params.map((param, index) => {
    const name =
      typeof param === 'string' ? param.replace(/^ToolCallParams\./, '').toLowerCase() : '';
    return name === 'input_parameters' || name === 'inputparameters' || name === 'output'
      ? name.startsWith('input')
        ? 'input_parameters'
        : 'output'
      : fail(`$.evaluation_params[${index}]`, 'expected input_parameters or output');
  });
  const strict = flag('strict_mode', 'strictMode');
  return {
    threshold: strict
      ? 1
      : typeof threshold === 'number'
        ? threshold
        : toolCorrectnessDefaults.threshold,
    inputParameters: names.includes('input_parameters'),
    output: names.includes('output'),
    exactMatch: flag('should_exact_match', 'shouldExactMatch'),
    ordering: flag('should_consider_ordering', 'shouldConsiderOrdering'),
    strict,
    given: true,
  };
}
