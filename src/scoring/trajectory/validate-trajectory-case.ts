import type { JsonValue } from '../../trace/trace.js';
import { at, checkKeys, checkRules, checkToolNames, invalid, isRecord } from '../validate-case.js';

const expectKeys = [
  'calls',
  'mode',
  'unlisted',
  'pass_threshold',
  'before',
  'never_before',
  'same_round',
  'same_turn',
  'min_steps',
  'max_steps',
  'min_rounds',
  'max_rounds',
  'min_turns',
  'max_turns',
  'min_user_turns',
  'max_user_turns',
  'max_calls_per_tool',
  'max_repeats',
  'max_failed_calls',
  'must_succeed',
  'recovered',
];
const expectationKeys = [
  'tool',
  'arguments',
  'rules',
  'extra_arguments',
  'pass_threshold',
  'times',
  'min',
  'max',
];
const modes = ['all', 'any', 'ordered', 'exact', 'never', 'subset', 'superset', 'unordered'];
const counts = [
  'min_steps',
  'max_steps',
  'min_rounds',
  'max_rounds',
  'min_turns',
  'max_turns',
  'min_user_turns',
  'max_user_turns',
  'max_repeats',
  'max_failed_calls',
];
const checked = new WeakSet<object>();

function checkExpectation(expectation: unknown, where: string): void {
  if (typeof expectation === 'string' && expectation !== '') return;
  checkKeys(expectation, expectationKeys, where);
  const fields = expectation as { readonly [key: string]: JsonValue };
  checkToolNames(fields['tool'], at(where, 'tool'), false);
  if (fields['arguments'] !== undefined && !isRecord(fields['arguments']))
    throw invalid(at(where, 'arguments'), 'must be an object of expected arguments');
  checkRules(fields['rules'], fields['arguments'], at(where, 'rules'));
}

function checkList(list: unknown, where: string, chains: boolean): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) throw invalid(where, 'must be a list');
  if (chains && list.length > 0 && list.every((item) => Array.isArray(item)))
    list.forEach((chain, index) => checkList(chain, `${where}[${index}]`, false));
  else list.forEach((item, index) => checkExpectation(item, `${where}[${index}]`));
}

/**
 * A trajectory case's checks, once per case object: unknown keys in `expect` and in call
 * expectations, rules that need a value and have none, modes and counts of the wrong kind. The
 * runner checks suites against config/test-case.schema.json as well; this is for library callers,
 * whose typos would otherwise be ignored.
 */
export function checkTrajectoryCase(testCase: object, where: string): void {
  if (checked.has(testCase)) return;
  const fields = testCase as { readonly [key: string]: unknown };
  const expect = fields['expect'];
  if (expect !== undefined) {
    const path = at(where, 'expect');
    checkKeys(expect, expectKeys, path);
    const limits = expect as { readonly [key: string]: unknown };
    checkList(limits['calls'], at(path, 'calls'), false);
    for (const key of ['before', 'never_before', 'same_round', 'same_turn'])
      checkList(limits[key], at(path, key), true);
    const mode = limits['mode'];
    if (mode !== undefined && !modes.includes(mode as string))
      throw invalid(
        at(path, 'mode'),
        `must be one of ${modes.join(', ')} (got ${JSON.stringify(mode)})`,
      );
    for (const key of counts) {
      const value = limits[key];
      if (
        value !== undefined &&
        (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
      )
        throw invalid(at(path, key), `must be a whole number ≥ 0 (got ${JSON.stringify(value)})`);
    }
    const threshold = limits['pass_threshold'];
    if (
      threshold !== undefined &&
      (typeof threshold !== 'number' || threshold < 0 || threshold > 1)
    )
      throw invalid(
        at(path, 'pass_threshold'),
        `must be a number in [0, 1] (got ${JSON.stringify(threshold)})`,
      );
    const succeed = limits['must_succeed'];
    if (
      succeed !== undefined &&
      (!Array.isArray(succeed) || succeed.some((tool) => typeof tool !== 'string' || tool === ''))
    )
      throw invalid(at(path, 'must_succeed'), 'must be a list of tool names');
    if (limits['recovered'] !== undefined && typeof limits['recovered'] !== 'boolean')
      throw invalid(at(path, 'recovered'), 'must be true or false');
  }
  checkList(fields['never'], at(where, 'never'), false);
  checked.add(testCase);
}
