import type { JsonSchema } from '../trace/trace.js';
import { ownValue } from './own.js';
import { parseCallArguments } from './parse-arguments.js';
import { nameMatcher } from './rule-table.js';
import { scoreCallReference } from './score-call-reference.js';
import type { ActualCall, ExpectedCall, ScoreOptions, ScoreResult, TestCase } from './types.js';
import { invalid, isRecord } from './validate-case.js';
import { schemaCompileError } from './validate-arguments.js';

/**
 * A checked case scored the first time it is seen. Compiling a case costs more than the one
 * scoring it saves (on fresh copies of the BFCL-shaped workload, compiling and scoring took
 * 1.15–2× as long as checking and scoring with the reference scorer), and most cases are scored once per run, so the first scoring is the
 * reference scorer's and a case is compiled when it is seen again. Results are the same either
 * way (the property test holds the two byte-identical), and so are the errors: a declared schema
 * that is no object or does not compile throws here exactly where the compiled scorer throws —
 * the first pair, expected call by expected call and sent call by sent call, whose tool the
 * expectation accepts and whose arguments are an object.
 */
export function scoreFirstSight(
  testCase: TestCase,
  where: string,
  actualCalls: readonly ActualCall[],
  options: ScoreOptions,
): ScoreResult {
  for (const expected of expectedCallsOf(testCase)) {
    const accepts = [
      nameMatcher(
        typeof expected.expected_tool === 'string'
          ? [expected.expected_tool]
          : expected.expected_tool,
      ),
      ...(expected.alternatives ?? []).map((alternative) => nameMatcher([alternative.tool])),
    ];
    for (const call of actualCalls) {
      if (!accepts.some((accept) => accept(call.name))) continue;
      const declared =
        ownValue(testCase.schemas, call.name) ?? ownValue(options.schemas, call.name);
      if (declared !== undefined && sendsObject(call))
        checkDeclared(declared, call.name, testCase.schemas, where);
    }
  }
  return scoreCallReference(testCase, actualCalls, options);
}

/** The expected calls of a case: its list, else the case itself when it names a tool. */
export function expectedCallsOf(testCase: TestCase): readonly ExpectedCall[] {
  return (
    testCase.expected_calls ??
    (testCase.expected_tool !== undefined && testCase.expected_tool !== null
      ? [testCase as ExpectedCall]
      : [])
  );
}

/**
 * Throws for a declared schema that is no object or does not compile, naming where it was
 * declared: the case's own schemas, else the options' (the compiled Ajv validator is cached by
 * schema text, so checking again costs a lookup).
 */
export function checkDeclared(
  declared: JsonSchema,
  tool: string,
  caseSchemas: TestCase['schemas'],
  where: string,
): void {
  const at =
    ownValue(caseSchemas, tool) === declared
      ? `${where}.schemas.${tool}`
      : `scoreCall options.schemas.${tool}`;
  if (!isRecord(declared)) throw invalid(at, 'must be a JSON Schema object');
  const error = schemaCompileError(declared);
  if (error !== undefined) throw invalid(at, `the schema does not compile: ${error}`);
}

function sendsObject(call: ActualCall): boolean {
  const raw = call.arguments;
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return true;
  return parseCallArguments(call).ok;
}
