import { describe, expect, it } from 'vitest';
import type { AssistantOutput, ToolCall } from '../trace/trace.js';
import { diffToolCalls } from './diff-tool-calls.js';

const call = (name: string, args: string, id = 'call_x'): ToolCall => {
  let parsed: ToolCall['arguments'];
  try {
    parsed = { ok: true, value: JSON.parse(args) as never };
  } catch (error) {
    parsed = { ok: false, error: String(error) };
  }
  return { id, index: 0, name, argumentsRaw: args, arguments: parsed, complete: true };
};
const output = (...toolCalls: ToolCall[]): AssistantOutput => ({
  text: '',
  refusal: undefined,
  toolCalls,
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
});

describe('diffToolCalls', () => {
  it('is empty when names and argument values agree, whatever the ids and key order', () => {
    expect(
      diffToolCalls(
        output(call('a', '{"x":1,"y":[1,2]}', 'call_1')),
        output(call('a', '{"y":[1,2],"x":1}', 'call_2')),
      ),
    ).toEqual([]);
  });

  it('reports count, name and argument differences', () => {
    expect(
      diffToolCalls(
        output(call('get_weather', '{"city":"Paris","unit":"c"}')),
        output(call('get_weather', '{"city":"Lyon"}'), call('send_email', '{}')),
      ),
    ).toEqual([
      'tool calls: 1 recorded, 2 live (get_weather → get_weather, send_email)',
      'call 0 get_weather: city: "Paris" → "Lyon"',
      'call 0 get_weather: unit: "c" → (absent)',
    ]);
    expect(diffToolCalls(output(call('a', '{}')), output(call('b', '{}')))).toEqual([
      'call 0: a → b',
    ]);
    expect(diffToolCalls(output(call('a', '{"x":')), output(call('a', '{"x":1}')))).toEqual([
      'call 0 a: arguments "{\\"x\\":" → "{\\"x\\":1}"',
    ]);
  });
});
