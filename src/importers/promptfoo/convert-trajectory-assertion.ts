import type { JsonValue } from '../../trace/trace.js';
import {
  approximated,
  converted,
  names,
  notConverted,
  type AssertionOutcome,
  type CaseParts,
} from './case-parts.js';
import type { PromptfooAssertion } from './read-promptfoo-tests.js';

// promptfoo's trajectory:* assertions (src/assertions/trajectory.ts) as calltape trajectory checks.

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

export function toolUsed(assertion: PromptfooAssertion, parts: CaseParts): AssertionOutcome {
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

export function toolSequence(assertion: PromptfooAssertion, parts: CaseParts): AssertionOutcome {
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

export function toolArgsMatch(assertion: PromptfooAssertion, parts: CaseParts): AssertionOutcome {
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

export function stepCount(assertion: PromptfooAssertion, parts: CaseParts): AssertionOutcome {
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
