import { describe, expect, it } from 'vitest';
import type { RecordedExchange } from '../recorded-exchange.js';
import {
  interactionColumns,
  interactionValues,
  toolCallColumns,
  toolCallValues,
} from './stored-row.js';

const exchange: RecordedExchange = {
  interaction: {
    id: 'i1',
    sessionId: 's1',
    provider: 'openai-chat',
    method: 'POST',
    path: '/v1/chat/completions',
    request: { model: 'm', stream: false, messages: [], tools: [], toolChoice: undefined },
    response: {
      id: 'r1',
      model: 'm',
      usage: undefined,
      alternatives: [],
      output: {
        text: '',
        refusal: undefined,
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        toolCalls: [
          {
            id: 'c1',
            index: 0,
            name: 'f',
            argumentsRaw: '{}',
            arguments: { ok: true, value: {} },
            complete: true,
          },
          {
            id: undefined,
            index: 1,
            name: 'g',
            argumentsRaw: '{',
            arguments: { ok: false, error: 'bad' },
            complete: false,
          },
        ],
      },
    },
    status: 'complete',
    httpStatus: 200,
    error: undefined,
    timing: { startedAt: 1.4, firstByteMs: 2, totalMs: 3 },
  },
  match: undefined,
  request: { headers: {}, body: new Uint8Array([1]) },
  response: undefined,
};

describe('stored rows', () => {
  // Positional binding pairs values with columns by place: a value left out or added shifts all after it.
  it('give one value per column, in column order', () => {
    const values = interactionValues(exchange);
    expect(values).toHaveLength(interactionColumns.length);
    const at = (column: (typeof interactionColumns)[number]) =>
      values[interactionColumns.indexOf(column)];
    expect([at('id'), at('session_id'), at('started_at'), at('agent_response_body')]).toEqual([
      'i1',
      's1',
      1,
      null,
    ]);
    const calls = toolCallValues(exchange.interaction);
    expect(calls.map((call) => call.length)).toEqual([
      toolCallColumns.length,
      toolCallColumns.length,
    ]);
    expect(calls.map((call) => call[toolCallColumns.indexOf('parse_error')])).toEqual([
      null,
      'bad',
    ]);
    expect(calls.map((call) => call[toolCallColumns.indexOf('position')])).toEqual([0, 1]);
  });
});
