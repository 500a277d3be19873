import type { ImportNote } from '../import-types.js';
import type { JsonValue } from '../../trace/trace.js';

/** What a promptfoo test's assertions add up to, before it is written as a calltape case. */
export interface CaseParts {
  /** Acceptable names of the answer's call (`expected_tool`), narrowed by each assertion that names one. */
  expectedTool: string[] | undefined;
  /** `arguments` of the call, by argument name (a Map: names come from input). */
  readonly arguments: Map<string, JsonValue>;
  /** `rules` by argument name. */
  readonly rules: Map<string, JsonValue>;
  extraArguments: 'ignore' | 'fail' | undefined;
  multipleCalls: 'first' | 'all' | undefined;
  /** `expect.calls`, and the mode they are checked in. */
  readonly calls: { tool: string; fields: Map<string, JsonValue> }[];
  mode: 'all' | 'ordered' | 'exact' | undefined;
  /** Further `expect` fields (`unlisted`, `min_steps`, `never_before`, …). */
  readonly expect: Map<string, JsonValue>;
  readonly never: JsonValue[];
  /** JavaScript checks a code judge runs, each with whether it is inverted and its threshold. */
  readonly judges: {
    body: string;
    inverse: boolean;
    threshold: number | undefined;
    where: string;
  }[];
}

export function emptyParts(): CaseParts {
  return {
    expectedTool: undefined,
    arguments: new Map(),
    rules: new Map(),
    extraArguments: undefined,
    multipleCalls: undefined,
    calls: [],
    mode: undefined,
    expect: new Map(),
    never: [],
    judges: [],
  };
}

/** Whether the parts check anything at all. */
export function checksSomething(parts: CaseParts): boolean {
  return (
    parts.expectedTool !== undefined ||
    parts.calls.length > 0 ||
    parts.expect.size > 0 ||
    parts.never.length > 0 ||
    parts.judges.length > 0
  );
}

/** What became of one assertion. */
export interface AssertionOutcome {
  readonly outcome: ImportNote['outcome'];
  readonly detail: string;
}

export const converted = (detail: string): AssertionOutcome => ({ outcome: 'converted', detail });
export const approximated = (detail: string): AssertionOutcome => ({
  outcome: 'approximated',
  detail,
});
export const notConverted = (detail: string): AssertionOutcome => ({
  outcome: 'not converted',
  detail,
});

/** Tool names as promptfoo writes a list of them: a list, or a comma-separated text. */
export function names(value: JsonValue | undefined): string[] | undefined {
  if (typeof value === 'string')
    return value
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
    return (value as string[]).map((name) => name.trim()).filter(Boolean);
  return undefined;
}
