import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../package-root.js';
import type { JsonValue } from '../../trace/trace.js';
import { ollamaCallId } from './ollama-tool-call.js';
import { parseOllamaRequest } from './parse-ollama-request.js';

const parallelResults = JSON.parse(
  readFileSync(
    join(
      packageRoot,
      'src/providers/ollama/__fixtures__/ollama-docs-parallel-tool-results.request.json',
    ),
    'utf8',
  ),
) as JsonValue;

describe('parseOllamaRequest', () => {
  it("pairs each tool result with its call by tool_name, in order (Ollama's documented parallel example)", () => {
    const summary = parseOllamaRequest(parallelResults);
    expect(summary.model).toBe('qwen3');
    const assistant = summary.messages[1];
    expect(assistant?.toolCalls.map((call) => [call.name, call.argumentsRaw])).toEqual([
      ['get_temperature', '{"city":"New York"}'],
      ['get_conditions', '{"city":"New York"}'],
      ['get_temperature', '{"city":"London"}'],
      ['get_conditions', '{"city":"London"}'],
    ]);
    const ids = assistant?.toolCalls.map((call) => call.id);
    expect(summary.messages.slice(2).map((message) => [message.toolCallId, message.text])).toEqual([
      [ids?.[0], '22°C'],
      [ids?.[1], 'Partly cloudy'],
      [ids?.[2], '15°C'],
      [ids?.[3], 'Rainy'],
    ]);
    expect(new Set(ids).size).toBe(4);
  });

  it('gives an echoed call the id its answer had, and follows tool_call_id where the agent sent one', () => {
    const summary = parseOllamaRequest({
      model: 'llama3.2',
      messages: [
        { role: 'user', content: 'weather in Oslo and Rome?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { function: { index: 0, name: 'get_weather', arguments: { city: 'Oslo' } } },
            {
              id: 'call_rome',
              function: { index: 1, name: 'get_weather', arguments: { city: 'Rome' } },
            },
          ],
        },
        { role: 'tool', tool_name: 'get_weather', tool_call_id: 'call_rome', content: '21°C' },
        { role: 'TOOL', tool_name: 'get_weather', content: '3°C' },
      ],
    });
    const oslo = ollamaCallId(0, 'get_weather', '{"city":"Oslo"}');
    expect(summary.messages[1]?.toolCalls.map((call) => call.id)).toEqual([oslo, 'call_rome']);
    expect(summary.messages.slice(2).map((message) => [message.role, message.toolCallId])).toEqual([
      ['tool', 'call_rome'],
      ['tool', oslo],
    ]);
  });

  it('reads tools, system prompts and the default stream', () => {
    const summary = parseOllamaRequest({
      model: 'llama3.2',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi', images: ['aGk='] },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Get the weather in a given city',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
        },
        { type: 'function', function: { description: 'no name' } },
      ],
      format: 'json',
      options: { temperature: 0 },
      think: true,
    });
    expect(summary.stream).toBe(true);
    expect(summary.messages.map((message) => [message.role, message.text])).toEqual([
      ['system', 'Be brief.'],
      ['user', 'hi'],
    ]);
    expect(summary.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Get the weather in a given city',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
        strict: undefined,
      },
    ]);
    expect(summary.toolChoice).toBeUndefined();
  });

  it('never throws on shapes it does not expect', () => {
    for (const body of [
      null,
      'text',
      [],
      { messages: 'x' },
      { messages: [null, 1, { content: 'no role' }] },
    ])
      expect(parseOllamaRequest(body as JsonValue).messages).toEqual([]);
  });
});
