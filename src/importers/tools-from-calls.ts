import type { JsonValue } from '../trace/trace.js';

/**
 * Chat Completions tool declarations for datasets that name tools but never declare them
 * (DeepEval, Ragas): one function per tool name, in order of first use, whose parameters list
 * every argument name the calls give, untyped. Enough for direct mode to offer the tools; the
 * real schemas are the user's to paste in.
 */
export function toolsFromCalls(
  calls: readonly {
    readonly name: string;
    readonly args?: { readonly [key: string]: JsonValue } | undefined;
  }[],
): JsonValue[] {
  const tools = new Map<string, Set<string>>();
  for (const call of calls) {
    const names = tools.get(call.name) ?? new Set<string>();
    for (const key of Object.keys(call.args ?? {})) names.add(key);
    tools.set(call.name, names);
  }
  return [...tools].map(([name, keys]) => ({
    type: 'function',
    function: {
      name,
      // fromEntries defines own keys, so an argument named __proto__ stays a property.
      parameters: {
        type: 'object',
        properties: Object.fromEntries([...keys].map((key) => [key, {}])),
      },
    },
  }));
}
