import type { JsonValue } from '../trace/trace.js';

type CaseValue = { [field: string]: JsonValue };

/**
 * A draft turned from positive to negative or back, as the review's flip key does it: a case
 * expecting a tool (`expected_tool`, or the calls of `expect`) comes to forbid it (`never`), and
 * a case forbidding tools comes to expect the first of them, without arguments (edit to add
 * some). The provenance's `kind` follows. A case naming no tool (`expected_tool: null`) has
 * nothing to flip to: the result says why instead.
 */
export function flipCase(
  value: CaseValue,
): { readonly value: CaseValue } | { readonly refused: string } {
  const {
    expected_tool: expected,
    arguments: _arguments,
    extra_arguments: _extra,
    rules: _rules,
    expect,
    never,
    review,
    provenance: _provenance,
    ...rest
  } = value;
  const provenance = isObject(value['provenance']) ? value['provenance'] : undefined;
  // The review mark and provenance stay last, where a reader of the suite expects them.
  const marked = (kind: 'positive' | 'negative'): CaseValue => ({
    ...(review !== undefined ? { review } : {}),
    ...(provenance ? { provenance: { ...provenance, kind } } : {}),
  });
  const expectedTools =
    typeof expected === 'string' || Array.isArray(expected)
      ? [expected].flat()
      : isObject(expect) && Array.isArray(expect['calls'])
        ? expect['calls'].flatMap(toolsOf)
        : [];
  if (expectedTools.length > 0) {
    const others = isObject(expect) ? withoutCalls(expect) : undefined;
    return {
      value: {
        ...rest,
        ...(others ? { expect: others } : {}),
        never: [...new Set(expectedTools.filter((tool) => typeof tool === 'string'))],
        ...marked('negative'),
      },
    };
  }
  const forbidden = Array.isArray(never) ? never.flatMap(toolsOf) : [];
  const [first] = forbidden;
  if (typeof first === 'string')
    return {
      value: {
        ...rest,
        ...(expect !== undefined ? { expect } : {}),
        expected_tool: first,
        ...marked('positive'),
      },
    };
  return {
    refused:
      expected === null
        ? 'this case expects no tool call and names no tool to expect instead; edit it (e) to say which'
        : 'this case names no tool to flip; edit it (e) instead',
  };
}

function toolsOf(call: JsonValue): JsonValue[] {
  if (typeof call === 'string') return [call];
  if (isObject(call)) return [call['tool'] ?? []].flat();
  return [];
}

/** The trajectory expectations left once the expected calls go (step limits and the like stay). */
function withoutCalls(expect: CaseValue): CaseValue | undefined {
  const {
    calls: _calls,
    mode: _mode,
    unlisted: _unlisted,
    pass_threshold: _threshold,
    ...others
  } = expect;
  return Object.keys(others).length > 0 ? others : undefined;
}

function isObject(value: JsonValue | undefined): value is CaseValue {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
