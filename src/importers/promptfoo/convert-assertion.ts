import {
  approximated,
  converted,
  names,
  notConverted,
  type AssertionOutcome,
  type CaseParts,
} from './case-parts.js';
import {
  stepCount,
  toolArgsMatch,
  toolSequence,
  toolUsed,
} from './convert-trajectory-assertion.js';
import { readJavascript } from './read-javascript.js';
import type { PromptfooAssertion } from './read-promptfoo-tests.js';
import { readTransform } from './read-transform.js';

/** What an assertion is converted against: the tools the provider offers. */
export interface AssertionContext {
  readonly toolNames: readonly string[];
}

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
