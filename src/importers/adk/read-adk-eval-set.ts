import { CalltapeError } from '../../errors.js';
import type { JsonValue } from '../../trace/trace.js';

/** An expected tool call of an invocation, with where it was in the file. */
export interface AdkToolUse {
  readonly name: string;
  readonly args: { readonly [key: string]: JsonValue };
  readonly path: string;
}

/** One invocation (a user turn and what the agent should do with it), read from either format. */
export interface AdkInvocation {
  readonly path: string;
  /** The user's text parts, joined; undefined when the turn has no text. */
  readonly user: string | undefined;
  /** Parts of the user's content that are not text (files, inline data, function responses), by JSON path. */
  readonly otherUserParts: readonly string[];
  readonly toolUses: readonly AdkToolUse[];
  /** The reference final reply's text, when there is one. */
  readonly finalResponse: string | undefined;
  /** Paths of what else the invocation records that calltape does not check (sub-agent replies, other events). */
  readonly unchecked: readonly { readonly path: string; readonly what: string }[];
}

/** ADK's simulated-user scenario (`conversation_scenario`). */
export interface AdkScenario {
  readonly path: string;
  readonly startingPrompt: string | undefined;
  readonly plan: string;
  readonly persona: string | undefined;
}

export interface AdkCase {
  readonly id: string;
  readonly path: string;
  readonly invocations: readonly AdkInvocation[];
  readonly scenario: AdkScenario | undefined;
  /** `session_input` when given (app name, user id, initial state): calltape cannot set it. */
  readonly sessionInput: { readonly path: string; readonly value: JsonValue } | undefined;
}

export interface AdkEvalSet {
  readonly id: string;
  readonly description: string | undefined;
  /** The legacy list format (`[{query, expected_tool_use, reference}]`): one conversation. */
  readonly legacy: boolean;
  readonly cases: readonly AdkCase[];
}

type JsonObject = { readonly [key: string]: JsonValue };

/**
 * Reads Google ADK's eval data: an EvalSet (`eval_set_id`, `eval_cases[]`; keys in snake_case or
 * the camelCase ADK also writes) or the legacy list of `{query, expected_tool_use, reference}`
 * (one conversation, one entry per turn). Bad input throws CONFIG_INVALID naming the file and the
 * JSON path of the field.
 */
export function readAdkEvalSet(value: JsonValue, file: string, fallbackId: string): AdkEvalSet {
  const fail = (path: string, expected: string): never => {
    throw new CalltapeError('CONFIG_INVALID', `${file}: ${path}: ${expected}`);
  };
  if (Array.isArray(value)) {
    const invocations = value.map((entry, index) => legacyInvocation(entry, `$[${index}]`, fail));
    return {
      id: fallbackId,
      description: undefined,
      legacy: true,
      cases: [
        { id: fallbackId, path: '$', invocations, scenario: undefined, sessionInput: undefined },
      ],
    };
  }
  const root = object(
    value,
    '$',
    fail,
    'an ADK EvalSet (eval_set_id, eval_cases) or the legacy list of {query, expected_tool_use, reference}',
  );
  const cases = field(root, 'eval_cases', 'evalCases');
  if (!Array.isArray(cases))
    return fail(
      '$.eval_cases',
      `missing or not a list: this is not an ADK EvalSet (eval_set_id, eval_cases) nor the legacy list of {query, expected_tool_use, reference}${
        field(root, 'criteria') === undefined
          ? ''
          : ' (it looks like a test_config.json, which is read from beside the eval set: name the *.test.json or *.evalset.json file instead)'
      }`,
    );
  const id = field(root, 'eval_set_id', 'evalSetId');
  const description = field(root, 'description');
  return {
    id: typeof id === 'string' && id.length > 0 ? id : fallbackId,
    description: typeof description === 'string' ? description : undefined,
    legacy: false,
    cases: cases.map((item, index) => evalCase(item, `$.eval_cases[${index}]`, fail)),
  };
}

type Fail = (path: string, expected: string) => never;

function evalCase(value: JsonValue, path: string, fail: Fail): AdkCase {
  const item = object(value, path, fail, 'an eval case object');
  const id = field(item, 'eval_id', 'evalId');
  if (typeof id !== 'string' || id.length === 0)
    return fail(`${path}.eval_id`, 'missing or not a text');
  const conversation = field(item, 'conversation') ?? [];
  if (!Array.isArray(conversation))
    return fail(`${path}.conversation`, 'not a list of invocations');
  const scenario = field(item, 'conversation_scenario', 'conversationScenario');
  const session = field(item, 'session_input', 'sessionInput');
  return {
    id,
    path,
    invocations: conversation.map((entry, index) =>
      invocation(entry, `${path}.conversation[${index}]`, fail),
    ),
    scenario:
      scenario === undefined || scenario === null
        ? undefined
        : readScenario(scenario, `${path}.conversation_scenario`, fail),
    sessionInput:
      session === undefined || session === null
        ? undefined
        : { path: `${path}.session_input`, value: session },
  };
}

function readScenario(value: JsonValue, path: string, fail: Fail): AdkScenario {
  const scenario = object(
    value,
    path,
    fail,
    'an object with starting_prompt and conversation_plan',
  );
  const plan = field(scenario, 'conversation_plan', 'conversationPlan');
  if (typeof plan !== 'string') return fail(`${path}.conversation_plan`, 'missing or not a text');
  const start = field(scenario, 'starting_prompt', 'startingPrompt');
  const persona = field(scenario, 'user_persona', 'userPersona');
  return {
    path,
    plan,
    startingPrompt: typeof start === 'string' ? start : undefined,
    persona:
      typeof persona === 'string'
        ? persona
        : typeof persona === 'object' && persona !== null
          ? JSON.stringify(persona)
          : undefined,
  };
}

function invocation(value: JsonValue, path: string, fail: Fail): AdkInvocation {
  const item = object(value, path, fail, 'an invocation object');
  const userContent = field(item, 'user_content', 'userContent');
  const user = content(userContent, `${path}.user_content`, fail);
  const final = field(item, 'final_response', 'finalResponse');
  const finalText =
    final === undefined || final === null
      ? undefined
      : content(final, `${path}.final_response`, fail).text;
  const intermediate = field(item, 'intermediate_data', 'intermediateData');
  const toolUses: AdkToolUse[] = [];
  const unchecked: { path: string; what: string }[] = [];
  if (intermediate !== undefined && intermediate !== null) {
    const data = object(intermediate, `${path}.intermediate_data`, fail, 'an object');
    const uses = field(data, 'tool_uses', 'toolUses') ?? [];
    if (!Array.isArray(uses)) return fail(`${path}.intermediate_data.tool_uses`, 'not a list');
    uses.forEach((use, index) =>
      toolUses.push(
        toolUse(use, `${path}.intermediate_data.tool_uses[${index}]`, 'name', 'args', fail),
      ),
    );
    const responses = field(data, 'intermediate_responses', 'intermediateResponses');
    if (Array.isArray(responses) && responses.length > 0)
      unchecked.push({
        path: `${path}.intermediate_data.intermediate_responses`,
        what: 'sub-agent replies',
      });
    // Newer ADK keeps the invocation's events instead: the function calls in them are its tool uses.
    const events = field(data, 'invocation_events', 'invocationEvents') ?? [];
    if (!Array.isArray(events))
      return fail(`${path}.intermediate_data.invocation_events`, 'not a list');
    events.forEach((event, index) => {
      const eventPath = `${path}.intermediate_data.invocation_events[${index}]`;
      const parts = content(
        field(object(event, eventPath, fail, 'an event object'), 'content') ?? null,
        `${eventPath}.content`,
        fail,
      );
      parts.calls.forEach((call) => toolUses.push(call));
      if (parts.text !== undefined)
        unchecked.push({ path: `${eventPath}.content`, what: 'an intermediate reply' });
    });
  }
  return {
    path,
    user: user.text,
    otherUserParts: user.other,
    toolUses,
    finalResponse: finalText,
    unchecked,
  };
}

function legacyInvocation(value: JsonValue, path: string, fail: Fail): AdkInvocation {
  const item = object(value, path, fail, 'an object with query, expected_tool_use and reference');
  const query = field(item, 'query');
  if (typeof query !== 'string') return fail(`${path}.query`, 'missing or not a text');
  const expected = field(item, 'expected_tool_use') ?? [];
  if (!Array.isArray(expected)) return fail(`${path}.expected_tool_use`, 'not a list');
  const reference = field(item, 'reference');
  const mocked = field(item, 'mock_tool_output');
  return {
    path,
    user: query,
    otherUserParts: [],
    toolUses: expected.map((use, index) =>
      toolUse(use, `${path}.expected_tool_use[${index}]`, 'tool_name', 'tool_input', fail),
    ),
    finalResponse: typeof reference === 'string' ? reference : undefined,
    unchecked:
      mocked === undefined
        ? []
        : [{ path: `${path}.mock_tool_output`, what: 'a mocked tool output' }],
  };
}

function toolUse(
  value: JsonValue,
  path: string,
  nameKey: string,
  argsKey: string,
  fail: Fail,
): AdkToolUse {
  const use = object(value, path, fail, `an object with ${nameKey} and ${argsKey}`);
  const name = field(use, nameKey);
  if (typeof name !== 'string' || name.length === 0)
    return fail(`${path}.${nameKey}`, 'missing or not a text');
  const args = field(use, argsKey) ?? {};
  return { name, args: object(args, `${path}.${argsKey}`, fail, 'an object of arguments'), path };
}

/** A Content's text parts joined, its function calls, and the paths of its other parts. */
function content(
  value: JsonValue | undefined,
  path: string,
  fail: Fail,
): { text: string | undefined; calls: AdkToolUse[]; other: string[] } {
  if (value === undefined || value === null) return { text: undefined, calls: [], other: [] };
  const parts = field(object(value, path, fail, 'a Content object with parts'), 'parts') ?? [];
  if (!Array.isArray(parts)) return fail(`${path}.parts`, 'not a list');
  const texts: string[] = [];
  const calls: AdkToolUse[] = [];
  const other: string[] = [];
  parts.forEach((part, index) => {
    const partPath = `${path}.parts[${index}]`;
    const item = object(part, partPath, fail, 'a Part object');
    const text = field(item, 'text');
    const call = field(item, 'function_call', 'functionCall');
    if (typeof text === 'string' && field(item, 'thought') !== true) texts.push(text);
    else if (call !== undefined && call !== null)
      calls.push(toolUse(call, `${partPath}.function_call`, 'name', 'args', fail));
    else if (Object.values(item).some((entry) => entry !== null && entry !== undefined))
      other.push(partPath);
  });
  return { text: texts.length > 0 ? texts.join('\n') : undefined, calls, other };
}

function object(value: JsonValue, path: string, fail: Fail, expected: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail(path, `expected ${expected}`);
  return value;
}

/** A field by its snake_case name or ADK's camelCase alias; own properties only. */
function field(item: JsonObject, name: string, alias?: string): JsonValue | undefined {
  if (Object.hasOwn(item, name)) return item[name];
  if (alias !== undefined && Object.hasOwn(item, alias)) return item[alias];
  return undefined;
}
