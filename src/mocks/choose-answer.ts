import { parseCallArguments } from '../scoring/parse-arguments.js';
import { scoreCall } from '../scoring/score-call.js';
import type { JsonValue } from '../trace/trace.js';
import type { TestCase } from '../scoring/types.js';
import type {
  AnswerSpec,
  ConditionalAnswer,
  MockAnswer,
  MockCall,
  MockContext,
  MockSpec,
} from './mock-types.js';
import { renderTemplate } from './render-template.js';

/** The answer spec a static, conditional or sequence mock gives a call (module mocks answer elsewhere). */
export function chooseAnswer(mock: MockSpec, call: MockCall, context: MockContext): AnswerSpec {
  if (mock.when) {
    for (const condition of mock.when) {
      // Conditions are partial (unlisted arguments are free) and use every matcher of the scoring engine.
      const verdict = scoreCall(conditionCase(mock.tool, condition), [
        { name: call.name, arguments: call.argumentsRaw },
      ]);
      if (verdict.is_correct) return condition;
    }
    return (
      mock.otherwise ?? { error: `calltape mock ${mock.tool}: no answer matches these arguments` }
    );
  }
  if (mock.sequence) {
    const answer = mock.sequence[context.occurrence];
    if (answer) return answer;
    if (mock.after === 'error')
      return {
        error: `calltape mock ${mock.tool}: the sequence of ${mock.sequence.length} answer(s) is used up`,
      };
    return mock.sequence[mock.sequence.length - 1] as AnswerSpec;
  }
  return mock;
}

/** One case object per condition, so the scorer compiles each condition once (it caches compiled cases by object). */
const conditionCases = new WeakMap<ConditionalAnswer, TestCase>();

function conditionCase(tool: string, condition: ConditionalAnswer): TestCase {
  let testCase = conditionCases.get(condition);
  if (!testCase)
    conditionCases.set(
      condition,
      (testCase = {
        expected_tool: tool,
        arguments: condition.arguments ?? {},
        ...(condition.rules ? { rules: condition.rules } : {}),
        extra_arguments: 'ignore',
      }),
    );
  return testCase;
}

/**
 * The tool message an answer becomes: a result as text (JSON written compactly), an error as
 * `{"error": message}` (or its JSON), templates filled from the call. Arguments the model sent as
 * invalid JSON, or a template naming an argument the call lacks, become an error result the
 * model can react to — the same as a real tool rejecting bad input.
 */
export function renderAnswer(
  mock: Pick<MockSpec, 'tool'>,
  answer: AnswerSpec,
  call: MockCall,
): MockAnswer {
  const delayMs = answer.delay_ms ?? 0;
  const parsed = parseCallArguments({ name: call.name, arguments: call.argumentsRaw });
  if (!parsed.ok)
    return {
      content: JSON.stringify({ error: `calltape mock ${mock.tool}: ${parsed.error}` }),
      isError: true,
      delayMs,
    };
  const isError = answer.error !== undefined;
  const template: JsonValue = isError
    ? typeof answer.error === 'string'
      ? { error: answer.error }
      : (answer.error as JsonValue)
    : (answer.result as JsonValue);
  const rendered = renderTemplate(template, { name: call.name, id: call.id, args: parsed.value });
  if (!rendered.ok)
    return {
      content: JSON.stringify({
        error: `calltape mock ${mock.tool}: the call has no argument ${rendered.missing}`,
      }),
      isError: true,
      delayMs,
    };
  return {
    content: typeof rendered.value === 'string' ? rendered.value : JSON.stringify(rendered.value),
    isError,
    delayMs,
  };
}

/** What a module's `respond(call, context)` returned, as an answer spec: `{ result }` / `{ error }`, or the result itself. */
export function moduleAnswer(value: unknown): AnswerSpec {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && (keys[0] === 'result' || keys[0] === 'error'))
      return value as AnswerSpec;
  }
  if (value === undefined) return { error: 'respond() returned nothing' };
  return { result: value as JsonValue };
}
