import { renderTemplate } from '../mocks/render-template.js';
import { scoreCall } from '../scoring/score-call.js';
import type { JsonValue } from '../trace/trace.js';
import type { McpAnswerSpec, McpMockSpec } from './mcp-mock-types.js';

/**
 * The tools/call result a mock gives: the first `when` whose arguments match (the scoring
 * engine's matchers, unlisted arguments free), else `otherwise`, else the mock's own answer.
 * Templates are filled from the call; a template naming an argument the call lacks, or no
 * matching `when` and no `otherwise`, is an `isError` result the model can react to.
 */
export function chooseMcpAnswer(
  mock: McpMockSpec,
  call: {
    readonly name: string;
    readonly id: string;
    readonly arguments: { readonly [key: string]: JsonValue };
  },
): { readonly [key: string]: JsonValue } {
  const spec = pick(mock, call);
  if (!spec) return errorResult(`calltape mock ${mock.tool}: no answer matches these arguments`);
  const rendered = renderTemplate(toJson(spec), {
    name: call.name,
    id: call.id,
    args: call.arguments,
  });
  if (!rendered.ok)
    return errorResult(`calltape mock ${mock.tool}: the call has no argument ${rendered.missing}`);
  const filled = rendered.value as McpAnswerSpec;
  const content =
    typeof filled.content === 'string'
      ? [{ type: 'text', text: filled.content }]
      : filled.content
        ? [...filled.content]
        : [{ type: 'text', text: JSON.stringify(filled.structuredContent ?? {}) }];
  return {
    content,
    ...(filled.structuredContent !== undefined
      ? { structuredContent: filled.structuredContent }
      : {}),
    ...(filled.isError === true ? { isError: true } : {}),
  };
}

function pick(
  mock: McpMockSpec,
  call: { readonly name: string; readonly arguments: { readonly [key: string]: JsonValue } },
): McpAnswerSpec | undefined {
  if (!mock.when) return mock;
  for (const condition of mock.when) {
    const verdict = scoreCall(
      {
        expected_tool: mock.tool,
        arguments: condition.arguments ?? {},
        ...(condition.rules ? { rules: condition.rules } : {}),
        extra_arguments: 'ignore',
      },
      [{ name: call.name, arguments: JSON.stringify(call.arguments) }],
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
