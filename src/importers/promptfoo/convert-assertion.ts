import type { JsonValue } from '../../trace/trace.js';
import type { ImportNote } from '../import-types.js';
import type { CaseParts } from './case-parts.js';
import { readJavascript } from './read-javascript.js';
import type { PromptfooAssertion } from './read-promptfoo-tests.js';
import { readTransform } from './read-transform.js';

/** What became of one assertion. */
export interface AssertionOutcome {
  readonly outcome: ImportNote['outcome'];
  readonly detail: string;
}

/** What an assertion is converted against: the tools the provider offers. */
export interface AssertionContext {
  readonly toolNames: readonly string[];
}

const converted = (detail: string): AssertionOutcome => ({ outcome: 'converted', detail });
const approximated = (detail: string): AssertionOutcome => ({ outcome: 'approximated', detail });
const notConverted = (detail: string): AssertionOutcome => ({ outcome: 'not converted', detail });

const modelGraded = new Set([
  'llm-rubric',
  'model-graded-closedqa',
  'model-graded-factuality',
  'factuality',
  'g-eval',
  'answer-relevance',
  'context-faithfulness',
  'context-recall',
  'context-relevance',
  'trajectory:goal-success',
  'agent-rubric',
  'search-rubric',
  'select-best',
]);

/**
 * Adds what one promptfoo assertion checks to the case's parts, or says why it cannot. promptfoo's
 * `trajectory:*` assertions read the agent's traced tool spans (src/assertions/trajectory.ts);
 * calltape reads the same calls from the traffic, so they become trajectory checks (`expect`,
 * `never`). Tool names there are promptfoo globs (`*` and `?`); calltape's globs have `*` only.
 */
export function convertAssertion(
  assertion: PromptfooAssertion,
  parts: CaseParts,
  context: AssertionContext,
): AssertionOutcome {
  if (assertion.weight === 0)
    return notConverted(
      'weight 0: promptfoo reports it but does not count it toward the test; calltape has no check that only reports',
    );
  switch (assertion.type) {
    case 'is-valid-openai-tools-call':
      return validToolsCall(assertion, parts, context);
    case 'tool-call-f1':
      return toolCallF1(assertion, parts);
    case 'trajectory:tool-used':
      return toolUsed(assertion, parts);
    case 'trajectory:tool-sequence':
      return toolSequence(assertion, parts);
    case 'trajectory:tool-args-match':
      return toolArgsMatch(assertion, parts);
    case 'trajectory:step-count':
      return stepCount(assertion, parts);
    case 'equals':
    case 'contains':
    case 'icontains':
      return onToolCall(assertion, parts, context);
    case 'javascript':
      return javascript(assertion, parts);
    case 'python':
      return notConverted('Python code: port it to a code judge module (judge: { code })');
    default:
      if (assertion.type.startsWith('trace-'))
        return notConverted(
          'it reads traced spans (errors, counts, durations); calltape reads the traffic: max_failed_calls and the step limits are the nearest checks',
        );
      return modelGraded.has(assertion.type)
        ? notConverted(
            'judged by a model in promptfoo; calltape has LLM judges (judge: { rubric }): write the rubric',
          )
        : notConverted(
            "it checks the model's text (or cost, latency, format); calltape scores tool calls",
          );
  }
}

function validToolsCall(
  assertion: PromptfooAssertion,
  parts: CaseParts,
  context: AssertionContext,
): AssertionOutcome {
  if (assertion.inverse) return notConverted('a negated validity check has no calltape check');
  if (context.toolNames.length === 0)
    return notConverted(
      'the provider offers no tools (config.tools), so there is nothing to check against',
    );
  narrowTool(parts, context.toolNames);
  parts.multipleCalls ??= 'all';
  parts.extraArguments ??= 'ignore';
  return converted(
    "every call must name an offered tool with arguments valid by its schema: expected_tool lists the provider's tools, multiple_calls all, extra_arguments ignore (promptfoo validates with the schema alone)",
  );
}

function names(value: JsonValue | undefined): string[] | undefined {
  if (typeof value === 'string')
    return value
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
    return (value as string[]).map((name) => name.trim()).filter(Boolean);
  return undefined;
}

function toolCallF1(assertion: PromptfooAssertion, parts: CaseParts): AssertionOutcome {
  const expected = names(assertion.value);
  if (!expected || expected.length === 0)
    return notConverted('the value must be tool names (a list or a comma-separated text)');
  if (assertion.inverse) return notConverted('a negated F1 has no calltape check');
  if (parts.mode !== undefined)
    return notConverted(`the case's calls check is already taken (mode ${parts.mode})`);
  const threshold = assertion.threshold ?? 1;
  parts.mode = 'all';
  for (const name of new Set(expected)) parts.calls.push({ tool: name, fields: new Map() });
  if (threshold >= 1) {
    parts.expect.set('unlisted', 'fail');
    return converted(
      'F1 1.0 means the set of tools called is exactly these: expect.calls (mode all) with unlisted: fail (promptfoo ignores how often each is called, and so does mode all)',
    );
  }
  parts.expect.set('pass_threshold', threshold);
  return approximated(
    `F1 ≥ ${threshold} as recall ≥ ${threshold}: expect.pass_threshold over the expected tools; calls to other tools (precision) are not counted`,
  );
}

/** A promptfoo matcher (`name` or `pattern`) as a calltape tool glob; undefined when it uses `?` or names nothing. */
function toolGlob(value: JsonValue | undefined): string | undefined {
  let name: JsonValue | undefined = value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value))
    name = value['pattern'] ?? value['name'] ?? value['tool'];
  if (typeof name !== 'string' || name === '' || name.includes('?')) return undefined;
  return name;
}

function matcherType(value: JsonValue | undefined): JsonValue | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? value['type']
    : undefined;
}

function toolUsed(assertion: PromptfooAssertion, parts: CaseParts): AssertionOutcome {
  const value = assertion.value;
  const list = typeof value === 'string' ? [value] : names(value);
  if (list) {
    if (list.some((name) => name.includes('?')))
      return notConverted("a ? glob: calltape's tool globs have * only");
    if (assertion.inverse) {
      parts.never.push(...list);
      return converted('never: none of these tools may be called');
    }
    if (parts.mode === 'ordered' || parts.mode === 'exact') {
      const listed = new Set(parts.calls.map((call) => call.tool));
      return list.every((name) => listed.has(name))
        ? converted('implied by the case’s ordered calls check, which names every one of them')
        : notConverted(`the case's calls check is already taken (mode ${parts.mode})`);
    }
    parts.mode = 'all';
    for (const name of list)
      if (!parts.calls.some((call) => call.tool === name))
        parts.calls.push({ tool: name, fields: new Map() });
    return converted('expect.calls (mode all): each tool called at least once');
  }
  const glob = toolGlob(value);
  if (glob === undefined || (matcherType(value) !== undefined && matcherType(value) !== 'tool'))
    return notConverted('the value must name a tool (name or pattern, * globs only)');
  if (assertion.inverse) return notConverted('a negated count range has no calltape check');
  if (parts.mode === 'ordered' || parts.mode === 'exact')
    return notConverted(`the case's calls check is already taken (mode ${parts.mode})`);
  const fields = new Map<string, JsonValue>();
  const raw = value as { [key: string]: JsonValue };
  if (typeof raw['min'] === 'number' && raw['min'] !== 1) fields.set('min', raw['min']);
  if (typeof raw['max'] === 'number') fields.set('max', raw['max']);
  parts.mode = 'all';
  parts.calls.push({ tool: glob, fields });
  return converted('expect.calls (mode all) with min / max: how many calls match the tool');
}

function toolSequence(assertion: PromptfooAssertion, parts: CaseParts): AssertionOutcome {
  const value = assertion.value;
  const raw =
    value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  const steps = Array.isArray(value) ? value : raw?.['steps'];
  const mode = raw?.['mode'] ?? 'in_order';
  if (!Array.isArray(steps) || steps.length === 0 || (mode !== 'in_order' && mode !== 'exact'))
    return notConverted('the value must be a list of steps (or { steps, mode: in_order | exact })');
  if (steps.some((step) => Array.isArray(step)))
    return notConverted(
      'groups of parallel calls in a sequence: calltape checks groups (same_round) but not their order',
    );
  const globs = steps.map(toolGlob);
  if (globs.some((glob) => glob === undefined))
    return notConverted('every step must name a tool (name or pattern, * globs only)');
  const sequence = globs as string[];
  if (assertion.inverse) {
    if (sequence.length === 2 && mode === 'in_order') {
      parts.expect.set('never_before', sequence);
      return approximated(
        'expect.never_before: no call of the first tool before a call of the second; calltape compares rounds, so calls made in one parallel round are not in order (promptfoo orders every call) — see docs/scoring.md#trajectory-checks-added-in-v2',
      );
    }
    return notConverted('a forbidden sequence of other than two steps has no calltape check');
  }
  const listed = parts.calls;
  if (parts.mode === 'ordered' || parts.mode === 'exact')
    return notConverted(`the case's calls check is already taken (mode ${parts.mode})`);
  // tool-used and args checks written first fold into the sequence when it names their tools.
  if (
    listed.some(
      (call) => !sequence.includes(call.tool) || call.fields.has('min') || call.fields.has('max'),
    )
  )
    return notConverted("the case's calls check already holds tools the sequence does not name");
  const earlier = listed.splice(0);
  for (const tool of sequence) {
    const folded = earlier.findIndex((call) => call.tool === tool);
    listed.push({
      tool,
      fields:
        (folded >= 0 ? earlier.splice(folded, 1)[0]?.fields : undefined) ??
        new Map<string, JsonValue>(),
    });
  }
  parts.mode = mode === 'exact' ? 'exact' : 'ordered';
  const how =
    mode === 'exact'
      ? 'expect.calls, mode exact: exactly these calls in this order'
      : 'expect.calls, mode ordered: these calls in this order, others allowed between';
  // Arguments checked earlier now bind to their tool's step, where promptfoo accepts any call of it.
  const bound = listed.filter((call) => call.fields.has('arguments')).map((call) => call.tool);
  return bound.length > 0
    ? approximated(
        `${how}; the arguments expected of ${bound.join(', ')} now bind to that step of the sequence, where promptfoo accepts them on any call of the tool`,
      )
    : converted(how);
}

function toolArgsMatch(assertion: PromptfooAssertion, parts: CaseParts): AssertionOutcome {
  const value = assertion.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return notConverted('the value must be an object with name and args');
  const glob = toolGlob(value);
  const args = value['args'] ?? value['arguments'];
  if (glob === undefined)
    return notConverted('it must name a tool (name or pattern, * globs only)');
  if (args === null || args === undefined || typeof args !== 'object' || Array.isArray(args))
    return notConverted('args must be an object of argument values');
  if (value['defaults'] !== undefined)
    return notConverted(
      'defaults (an argument sent with its default value counts as left out) has no calltape rule',
    );
  const ignore = value['ignore'] === undefined ? [] : names(value['ignore']);
  if (!ignore || ignore.some((entry) => entry.includes('?')))
    return notConverted('ignore must be argument names or * globs');
  const exact = value['mode'] === 'exact';
  const fields = new Map<string, JsonValue>([
    ['arguments', args],
    ['extra_arguments', exact ? 'fail' : 'ignore'],
  ]);
  if (ignore.length > 0)
    fields.set(
      'rules',
      Object.fromEntries(ignore.map((entry) => [entry, { matching_strategy: 'ignore' }])),
    );
  const nested = Object.values(args).some((item) => item !== null && typeof item === 'object');
  const how = `${exact ? 'exact' : 'partial'} (extra_arguments ${exact ? 'fail' : 'ignore'})${nested ? '; nested objects and lists are compared as calltape compares them (docs/scoring.md), where promptfoo matches nested objects partially too' : ''}`;
  if (assertion.inverse) {
    parts.never.push({ tool: glob, ...Object.fromEntries(fields) });
    return converted(`never: no call of ${glob} with these arguments, ${how}`);
  }
  const existing = parts.calls.find((call) => call.tool === glob && !call.fields.has('arguments'));
  if (existing) {
    for (const [key, item] of fields) existing.fields.set(key, item);
    const inOrder = parts.mode === 'ordered' || parts.mode === 'exact';
    return (inOrder ? approximated : converted)(
      `the arguments of the expected ${glob} call, ${how}${inOrder ? '; in the ordered check they bind to that step, where promptfoo accepts any call of the tool' : ''}`,
    );
  }
  if (parts.mode === 'ordered' || parts.mode === 'exact')
    return notConverted(
      `the case's calls check is already taken (mode ${parts.mode}) and does not name ${glob}`,
    );
  parts.mode = 'all';
  parts.calls.push({ tool: glob, fields });
  return converted(`expect.calls (mode all): some call of ${glob} with these arguments, ${how}`);
}

function stepCount(assertion: PromptfooAssertion, parts: CaseParts): AssertionOutcome {
  const value = assertion.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return notConverted('the value must be an object with min and/or max');
  const type = value['type'];
  if (type !== 'tool')
    return notConverted(
      `it counts traced spans${type === undefined ? ' of every type' : ` of type ${JSON.stringify(type)}`}; calltape counts tool calls (min_steps, max_steps) and model rounds (min_rounds, max_rounds), not spans`,
    );
  if (assertion.inverse) return notConverted('a forbidden count range has no calltape check');
  const min = typeof value['min'] === 'number' ? value['min'] : undefined;
  const max = typeof value['max'] === 'number' ? value['max'] : undefined;
  const pattern = value['pattern'] ?? value['name'];
  if (pattern === undefined) {
    if (min !== undefined) parts.expect.set('min_steps', min);
    if (max !== undefined) parts.expect.set('max_steps', max);
    return converted('expect.min_steps / max_steps: tool calls in the run');
  }
  if (typeof pattern !== 'string' || /[*?]/.test(pattern))
    return notConverted(
      'a count of calls matching a glob has no calltape check (max_calls_per_tool takes names)',
    );
  if (parts.mode === 'ordered' || parts.mode === 'exact')
    return notConverted(`the case's calls check is already taken (mode ${parts.mode})`);
  parts.mode = 'all';
  const fields = new Map<string, JsonValue>([['min', min ?? 0]]);
  if (max !== undefined) fields.set('max', max);
  parts.calls.push({ tool: pattern, fields });
  return converted(
    `expect.calls (mode all): between ${min ?? 0} and ${max ?? 'any number of'} calls of ${pattern}`,
  );
}

/** Narrows the acceptable names to those both lists allow; when none is left, the later assertion's names win. */
function narrowTool(parts: CaseParts, allowed: readonly string[]): void {
  const both = parts.expectedTool?.filter((name) => allowed.includes(name)) ?? [];
  parts.expectedTool = both.length > 0 ? both : [...allowed];
}

function onToolCall(
  assertion: PromptfooAssertion,
  parts: CaseParts,
  context: AssertionContext,
): AssertionOutcome {
  const target =
    assertion.transform === undefined
      ? { kind: 'output' as const }
      : readTransform(assertion.transform);
  const value = assertion.value;
  if (target.kind === 'other')
    return notConverted(
      `the transform (${assertion.transform ?? ''}) picks something other than the first call's name or arguments`,
    );
  if (target.kind === 'output') {
    if (
      assertion.type === 'equals' ||
      typeof value !== 'string' ||
      !context.toolNames.includes(value)
    )
      return notConverted(
        "it compares the model's text; calltape scores tool calls (the reply text is a judge's business)",
      );
    if (assertion.inverse) {
      parts.never.push(value);
      return approximated(
        `never: ${value}; promptfoo fails on any mention of the name in the output, text included, calltape on a call to it`,
      );
    }
    if (parts.mode === 'ordered' || parts.mode === 'exact')
      return notConverted(`the case's calls check is already taken (mode ${parts.mode})`);
    parts.mode = 'all';
    if (!parts.calls.some((call) => call.tool === value))
      parts.calls.push({ tool: value, fields: new Map() });
    return approximated(
      `expect.calls: a call to ${value}; promptfoo passes on any mention of the name in the output, text included`,
    );
  }
  if (assertion.inverse)
    return notConverted('a negated comparison of the call has no calltape check');
  parts.multipleCalls ??= 'first';
  if (target.kind === 'name') {
    if (typeof value !== 'string') return notConverted('a tool name compares with a text');
    if (assertion.type === 'equals') {
      narrowTool(parts, [value]);
      return converted(`expected_tool ${value} (the first call's name; multiple_calls first)`);
    }
    narrowTool(parts, [`*${value}*`]);
    return approximated(
      `expected_tool *${value}* (a glob: the name contains it${assertion.type === 'icontains' ? ', case-sensitive where promptfoo ignores case' : ''})`,
    );
  }
  if (value === undefined) return notConverted('no value to compare with');
  if (target.kind === 'arguments') {
    if (
      assertion.type !== 'equals' ||
      value === null ||
      typeof value !== 'object' ||
      Array.isArray(value)
    )
      return notConverted('the whole arguments compare with an object, by equals');
    for (const [key, item] of Object.entries(value)) parts.arguments.set(key, item);
    parts.extraArguments = 'fail';
    return converted(
      "arguments, exact, with extra_arguments fail (the first call's whole arguments)",
    );
  }
  parts.arguments.set(target.key, value);
  if (assertion.type === 'equals')
    return converted(`arguments.${target.key} (the first call's argument, exact)`);
  parts.rules.set(target.key, { matching_strategy: 'substring' });
  return (assertion.type === 'icontains' ? approximated : converted)(
    `arguments.${target.key} with matching_strategy substring${assertion.type === 'icontains' ? ' (case-sensitive where promptfoo ignores case)' : ''}`,
  );
}

function javascript(assertion: PromptfooAssertion, parts: CaseParts): AssertionOutcome {
  const code = assertion.value;
  if (typeof code !== 'string') return notConverted('the value must be JavaScript code');
  if (code.startsWith('file://'))
    return notConverted(
      `the code is in ${code}: copy it into a code judge module (judge: { code })`,
    );
  const reading = readJavascript(code);
  if (reading.kind === 'unparsable')
    return notConverted(`the code does not parse: ${reading.message}`);
  if (reading.kind === 'reads-more')
    return notConverted(
      `it reads ${reading.names.join(', ')}, which calltape's code judges are not given (only the run's calls and text)`,
    );
  let body = reading.body;
  if (assertion.transform !== undefined) {
    const transform = readJavascript(assertion.transform);
    if (transform.kind !== 'output-only')
      return notConverted('its transform reads more than the output');
    body = `output = (function (output) {\n${transform.body}\n})(output);\n${body}`;
  }
  parts.judges.push({
    body,
    inverse: assertion.inverse,
    threshold: assertion.threshold,
    where: assertion.where,
  });
  return converted(
    "a code judge given promptfoo's output for the answer (its tool calls as the OpenAI chat provider returns them, or its text)",
  );
}
