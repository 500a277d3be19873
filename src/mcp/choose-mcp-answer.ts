import { stateChanges, stateHolds } from '../mocks/mock-state-rules.js';
import {
  renderTemplate,
  type MockStateView,
  type TemplateSource,
} from '../mocks/render-template.js';
import { scoreCall } from '../scoring/score-call.js';
import type { JsonValue } from '../trace/trace.js';
import type { McpAnswerSpec, McpMockSpec } from './mcp-mock-types.js';

/** A tools/call result a mock gave, and the state keys the call set in its session (empty: none). */
export interface McpMockAnswer {
  readonly result: { readonly [key: string]: JsonValue };
  readonly changes: ReadonlyMap<string, JsonValue>;
}

/**
 * The tools/call result a mock gives: the first `when` whose arguments match (the scoring
 * engine's matchers, unlisted arguments free) and whose `state` the session holds, else
 * `otherwise`, else the mock's own answer. Templates are filled from the call and the state
 * before it; a template naming an argument the call lacks, or no matching `when` and no
 * `otherwise`, is an `isError` result the model can react to and changes nothing. `changes` are
 * the answer's `set` (and the mock's, for an answer that is not an error), not yet applied.
 */
export function chooseMcpAnswer(
  mock: McpMockSpec,
  call: {
    readonly name: string;
    readonly id: string;
    readonly arguments: { readonly [key: string]: JsonValue };
  },
  state: MockStateView = new Map(),
): McpMockAnswer {
  const source = { name: call.name, id: call.id, args: call.arguments, state };
  const spec = pick(mock, source);
  if (!spec)
    return unchanged(errorResult(`calltape mock ${mock.tool}: no answer matches these arguments`));
  const rendered = renderTemplate(toJson(spec), source);
  const changes = stateChanges(
    [spec !== mock && spec.isError !== true ? mock.set : undefined, spec.set],
    source,
  );
  if (!rendered.ok || !changes.ok)
    return unchanged(
      errorResult(
        `calltape mock ${mock.tool}: the call has no argument ${!rendered.ok ? rendered.missing : !changes.ok ? changes.missing : ''}`,
      ),
    );
  const filled = rendered.value as McpAnswerSpec;
  const content =
    typeof filled.content === 'string'
      ? [{ type: 'text', text: filled.content }]
      : filled.content
        ? [...filled.content]
        : [{ type: 'text', text: JSON.stringify(filled.structuredContent ?? {}) }];
  return {
    result: {
      content,
      ...(filled.structuredContent !== undefined
        ? { structuredContent: filled.structuredContent }
        : {}),
      ...(filled.isError === true ? { isError: true } : {}),
    },
    changes: changes.changes,
  };
}

function unchanged(result: { readonly [key: string]: JsonValue }): McpMockAnswer {
  return { result, changes: new Map() };
}

function pick(mock: McpMockSpec, call: TemplateSource): McpAnswerSpec | undefined {
  if (!mock.when) return mock;
  for (const condition of mock.when) {
    if (condition.state && !stateHolds(condition.state, call)) continue;
    const verdict = scoreCall(
      {
        expected_tool: mock.tool,
        arguments: condition.arguments ?? {},
        ...(condition.rules ? { rules: condition.rules } : {}),
        extra_arguments: 'ignore',
      },
      [{ name: call.name, arguments: JSON.stringify(call.args) }],
    );
    if (verdict.is_correct) return condition;
  }
  return mock.otherwise;
}

function toJson(spec: McpAnswerSpec): JsonValue {
  const out: { [key: string]: JsonValue } = {};
  if (spec.content !== undefined) out['content'] = spec.content as JsonValue;
  if (spec.structuredContent !== undefined) out['structuredContent'] = spec.structuredContent;
  if (spec.isError !== undefined) out['isError'] = spec.isError;
  return out;
}

function errorResult(message: string): { readonly [key: string]: JsonValue } {
  return { content: [{ type: 'text', text: message }], isError: true };
}
