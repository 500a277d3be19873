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
import { stateChanges, stateHolds } from './mock-state-rules.js';
import { renderTemplate, type MockStateView } from './render-template.js';

/**
 * The answer spec a static, conditional or sequence mock gives a call (module mocks answer
 * elsewhere). A condition holds when the call's arguments match and the session's `state`
 * holds its `state` values.
 */
export function chooseAnswer(
  mock: MockSpec,
  call: MockCall,
  context: MockContext,
  state: MockStateView = noState,
): AnswerSpec {
  if (mock.when) {
    const parsed = parseCallArguments({ name: call.name, arguments: call.argumentsRaw });
    const source = { name: call.name, id: call.id, args: parsed.ok ? parsed.value : null, state };
    for (const condition of mock.when) {
      if (condition.state && !stateHolds(condition.state, source)) continue;
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

const noState: MockStateView = new Map();

/**
 * The tool message an answer becomes: a result as text (JSON written compactly), an error as
 * `{"error": message}` (or its JSON), templates filled from the call and the session's state as
 * it was before the call. Arguments the model sent as invalid JSON, or a template naming an
 * argument the call lacks, become an error result the model can react to — the same as a real
 * tool rejecting bad input. `state` on the answer holds the changes the call makes (not yet
 * applied): the answer's own `set`, and the mock's `set` when the answer is another one and
 * not an error.
 */
export function renderAnswer(
  mock: Pick<MockSpec, 'tool' | 'set'>,
  answer: AnswerSpec,
  call: MockCall,
  state: MockStateView = noState,
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
  const source = { name: call.name, id: call.id, args: parsed.value, state };
  const rendered = renderTemplate(template, source);
  const changes = stateChanges(
    [answer !== mock && !isError ? mock.set : undefined, answer.set],
    source,
  );
  const missing = !rendered.ok ? rendered.missing : !changes.ok ? changes.missing : undefined;
  if (missing !== undefined || !rendered.ok || !changes.ok)
    return {
      content: JSON.stringify({
        error: `calltape mock ${mock.tool}: the call has no argument ${missing}`,
      }),
      isError: true,
      delayMs,
    };
  return {
    content: typeof rendered.value === 'string' ? rendered.value : JSON.stringify(rendered.value),
    isError,
    delayMs,
    ...(changes.changes.size > 0 ? { state: Object.fromEntries(changes.changes) } : {}),
  };
}

/**
 * What a module's `respond(call, context)` returned, as an answer spec: `{ result }` / `{ error }`
 * (either with `set`, the state keys to change), or the result itself.
 */
export function moduleAnswer(value: unknown): AnswerSpec {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value).filter((key) => key !== 'set');
    const set: unknown = Reflect.get(value, 'set');
    const setIsEntries = typeof set === 'object' && set !== null && !Array.isArray(set);
    if (
      keys.length === 1 &&
      (keys[0] === 'result' || keys[0] === 'error') &&
      (set === undefined || setIsEntries)
    )
      return value as AnswerSpec;
  }
  if (value === undefined) return { error: 'respond() returned nothing' };
  return { result: value as JsonValue };
}
