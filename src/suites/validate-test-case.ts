import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { CalltapeError } from '../errors.js';
import { configSchemaFile, givenValue, schemaValidator } from '../config/schema-validator.js';
import type { CallExpectation, JudgeSpec, TrajectoryCase } from '../scoring/trajectory/types.js';
import { checkTrajectoryCase } from '../scoring/trajectory/validate-trajectory-case.js';
import type { TestCase } from '../scoring/types.js';
import { checkTestCase } from '../scoring/validate-case.js';
import { unknownFieldHint } from './unknown-field-hint.js';

export const testCaseSchemaPath = configSchemaFile('test-case.schema.json');

const schemaErrors = schemaValidator('test-case.schema.json');

/** Where a case was read from, for messages: the suite file and the case's position in it. */
export interface CaseSource {
  readonly file: string;
  readonly index: number;
  /** False when the file is outside the project: errors then quote none of its values. */
  readonly quote?: boolean;
}

/**
 * Checks one test case (call expectations and trajectory checks) against
 * config/test-case.schema.json and what a schema cannot say (min above max, a judge module that
 * does not exist). Every message names the file, the case (its test_id, else its position) and
 * the field, e.g. `suites/refunds.json: case "TC-7": expect.mode: must be one of [...]`.
 */
export function validateTestCase(value: unknown, source: CaseSource): TestCase & TrajectoryCase {
  const id =
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>)['test_id'] === 'string'
      ? `"${(value as Record<string, string>)['test_id']}"`
      : `#${source.index + 1}`;
  const where = `${source.file}: case ${id}`;
  const problems = describeErrors(schemaErrors(value), source.quote ?? true);
  const turns = (value as { readonly turns?: readonly TrajectoryCase[] }).turns ?? [];
  if (problems.length === 0)
    problems.push(
      ...semanticProblems(value as TrajectoryCase, dirname(source.file)),
      ...turns.flatMap((turn, index) =>
        semanticProblems(turn, dirname(source.file)).map((problem) => `turns[${index}].${problem}`),
      ),
    );
  if (problems.length > 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      problems.map((problem) => `${where}: ${problem}`).join('\n'),
      `See ${testCaseSchemaPath} for every field.`,
    );
  // The scorer's own checks, at load time rather than mid-run: rules that need an expected value and have none, schemas that do not compile.
  checkTestCase(value, `${where}:`);
  checkTrajectoryCase(value as object, `${where}:`);
  turns.forEach((turn, index) => {
    const { user: _user, ...expectations } = turn as TrajectoryCase & { readonly user?: string };
    checkTestCase(expectations, `${where}: turns[${index}]:`);
    checkTrajectoryCase(expectations, `${where}: turns[${index}]:`);
  });
  return value as TestCase & TrajectoryCase;
}

/** JSON pointer → the dotted path a user reads in their file (`expect.calls[0].tool`). */
function fieldOf(pointer: string): string {
  if (pointer === '') return '(case)';
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce(
      (path, part) =>
        /^\d+$/.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`,
      '',
    );
}

/**
 * The errors worth reading: alternatives (`anyOf`) report a failure per branch, so keep only the
 * deepest — the branch the user evidently meant — and drop the summary `anyOf` errors.
 */
function describeErrors(errors: readonly ErrorObject[], quote: boolean): string[] {
  const depth = (error: ErrorObject): number =>
    error.instancePath.split('/').length + (error.keyword === 'additionalProperties' ? 1 : 0);
  const concrete = errors.filter((error) => error.keyword !== 'anyOf' || error.instancePath === '');
  const deepest = Math.max(...concrete.map(depth));
  const chosen = concrete.filter((error) => depth(error) === deepest);
  return [
    ...new Set(
      chosen.map((error) => {
        const params = error.params as Record<string, unknown>;
        if (error.keyword === 'additionalProperties') {
          const field = String(params['additionalProperty']);
          return `${fieldOf(`${error.instancePath}/${field}`)}: unknown field${unknownFieldHint(error, field)}`;
        }
        // At the top, `required` only comes from the "what does this case check" alternatives.
        if (
          error.keyword === 'anyOf' ||
          (error.keyword === 'required' && error.instancePath === '')
        )
          return '(case): needs expected_tool, expected_calls, expect, never, judge or turns';
        const expected =
          error.keyword === 'enum'
            ? `must be one of ${JSON.stringify(params['allowedValues'])}`
            : (error.message ?? 'is invalid');
        return `${fieldOf(error.instancePath)}: ${expected}${givenValue(error.data, quote)}`;
      }),
    ),
  ];
}

function semanticProblems(testCase: TrajectoryCase, suiteFolder: string): string[] {
  const problems: string[] = [];
  const expectations = (field: string, list: readonly CallExpectation[] | undefined): void => {
    list?.forEach((expectation, index) => {
      if (typeof expectation === 'string') return;
      const at = `${field}[${index}]`;
      if (
        expectation.times !== undefined &&
        (expectation.min !== undefined || expectation.max !== undefined)
      )
        problems.push(`${at}: times sets both min and max; give times, or min/max`);
      if (
        expectation.min !== undefined &&
        expectation.max !== undefined &&
        expectation.min > expectation.max
      )
        problems.push(`${at}.min: ${expectation.min} is above max ${expectation.max}`);
    });
  };
  const fields = testCase as {
    readonly prompt?: unknown;
    readonly messages?: unknown;
    readonly turns?: unknown;
  };
  if (fields.turns !== undefined)
    for (const single of ['prompt', 'messages'] as const)
      if (fields[single] !== undefined)
        problems.push(
          `turns: a case has ${single} or turns, not both (turns are the conversation's user messages)`,
        );
  expectations('expect.calls', testCase.expect?.calls);
  expectations('never', testCase.never);
  const limits = testCase.expect;
  if (
    limits?.min_steps !== undefined &&
    limits.max_steps !== undefined &&
    limits.min_steps > limits.max_steps
  )
    problems.push(`expect.min_steps: ${limits.min_steps} is above max_steps ${limits.max_steps}`);
  const judges: readonly JudgeSpec[] =
    testCase.judge === undefined
      ? []
      : Array.isArray(testCase.judge)
        ? (testCase.judge as readonly JudgeSpec[])
        : [testCase.judge as JudgeSpec];
  judges.forEach((judge, index) => {
    if (!('code' in judge)) return;
    const path = isAbsolute(judge.code) ? judge.code : resolve(suiteFolder, judge.code);
    const field = Array.isArray(testCase.judge) ? `judge[${index}].code` : 'judge.code';
    if (!existsSync(path)) problems.push(`${field}: no such file ${path}`);
  });
  return problems;
}
