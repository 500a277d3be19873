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
