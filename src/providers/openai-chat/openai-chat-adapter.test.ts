import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chatCompletion,
  chatCompletionChunks,
  encodeSse,
  type ScriptedTurn,
} from '../../../test/support/openai-chat-chunks.js';
import { seededRandom } from '../../../test/support/random.js';
import { splitBytes } from '../../../test/support/split-bytes.js';
import type { ResponseEnding, ResponseInput } from '../provider-adapter.js';
import { openAiChatAdapter } from './openai-chat-adapter.js';

const encoder = new TextEncoder();
const sse = 'text/event-stream; charset=utf-8';

function streamed(
  turn: ScriptedTurn,
  options: { seed?: number; includeUsage?: boolean; ending?: ResponseEnding; cuts?: number[] } = {},
): ResponseInput {
  const bytes = encoder.encode(
    encodeSse(chatCompletionChunks(turn, seededRandom(options.seed ?? 1), options)),
  );
  return {
    httpStatus: 200,
    contentType: sse,
    body: splitBytes(bytes, options.cuts ?? []),
    ending: options.ending ?? 'finished',
  };
}

const weather: ScriptedTurn = {
  text: 'Let me check both cities.',
  toolCalls: [
    {
      id: 'call_a',
      name: 'get_weather',
      arguments: '{"city":"Zürich","unit":"c","note":"say \\"hi\\" ☃"}',
    },
    { id: 'call_b', name: 'get_time', arguments: '{"tz":"Asia/Tokyo 東京 🌧"}' },
  ],
};

describe('openAiChatAdapter.parseResponse (streamed)', () => {
  it('reassembles text and parallel calls whose deltas interleave', () => {
    const parsed = openAiChatAdapter.parseResponse(
      streamed({ ...weather, interleave: true }, { includeUsage: true }),
    );
    expect(parsed.status).toBe('complete');
    const output = parsed.response?.output;
    expect(output?.text).toBe('Let me check both cities.');
    expect(output?.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_calls' });
    expect(
      output?.toolCalls.map((call) => [
        call.id,
        call.index,
        call.name,
        call.arguments,
        call.complete,
      ]),
    ).toEqual([
      [
        'call_a',
        0,
        'get_weather',
        { ok: true, value: { city: 'Zürich', unit: 'c', note: 'say "hi" ☃' } },
        true,
      ],
      ['call_b', 1, 'get_time', { ok: true, value: { tz: 'Asia/Tokyo 東京 🌧' } }, true],
    ]);
    expect(parsed.response?.usage).toEqual({
      inputTokens: 42,
      outputTokens: 17,
      totalTokens: 59,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('yields the same interaction for any split of the byte stream', () => {
    const whole = openAiChatAdapter.parseResponse(
      streamed({ ...weather, interleave: true }, { includeUsage: true }),
    );
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 60 }), (cuts) => {
        expect(
          openAiChatAdapter.parseResponse(
            streamed({ ...weather, interleave: true }, { includeUsage: true, cuts }),
          ),
        ).toEqual(whole);
      }),
    );
  });

  it('reassembles any argument string exactly, whatever the fragmenting and byte splits', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.string({ unit: 'binary' }),
        fc.integer(),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.boolean(),
        (first, second, seed, cuts, interleave) => {
          const turn: ScriptedTurn = {
            toolCalls: [
              { name: 'a', arguments: first },
              { name: 'b', arguments: second },
            ],
            interleave,
          };
          const parsed = openAiChatAdapter.parseResponse(streamed(turn, { seed, cuts }));
          expect(parsed.status).toBe('complete');
          expect(parsed.response?.output.toolCalls.map((call) => call.argumentsRaw)).toEqual([
            first,
            second,
          ]);
        },
      ),
    );
  });

  it('keys deltas by id when a provider omits the index', () => {
    const parsed = openAiChatAdapter.parseResponse(
      streamed({ ...weather, interleave: true, omitIndex: true }),
    );
    expect(
      parsed.response?.output.toolCalls.map((call) => [call.id, call.name, call.argumentsRaw]),
    ).toEqual([
      ['call_a', 'get_weather', weather.toolCalls?.[0]?.arguments],
      ['call_b', 'get_time', weather.toolCalls?.[1]?.arguments],
    ]);
  });

  it('keeps malformed argument JSON raw and flagged, without failing the turn', () => {
    const parsed = openAiChatAdapter.parseResponse(
      streamed({ toolCalls: [{ name: 'broken', arguments: '{"a": 1,,}' }] }),
    );
    expect(parsed.status).toBe('complete');
    const call = parsed.response?.output.toolCalls[0];
    expect(call?.argumentsRaw).toBe('{"a": 1,,}');
    expect(call?.arguments.ok).toBe(false);
    expect(call?.complete).toBe(true);
  });

  it('records refusals', () => {
    const parsed = openAiChatAdapter.parseResponse(
      streamed({ refusal: "I can't help with that." }),
    );
    expect(parsed.response?.output.refusal).toBe("I can't help with that.");
    expect(parsed.response?.output.text).toBe('');
  });

  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['content_filter', 'content-filter'],
    ['function_call', 'tool-calls'],
    ['something_new', 'other'],
  ])('maps finish_reason %s to %s', (raw, unified) => {
    expect(
      openAiChatAdapter.parseResponse(streamed({ text: 'x', finishReason: raw })).response?.output
        .finishReason,
    ).toEqual({ unified, raw });
  });

  it('flags the calls of a truncated stream incomplete, never completing them', () => {
    const full = encodeSse(chatCompletionChunks(weather, seededRandom(3)));
    const cut = encoder.encode(full.slice(0, Math.floor(full.length * 0.6)));
    for (const ending of ['finished', 'upstream-failed'] as const) {
      const parsed = openAiChatAdapter.parseResponse({
        httpStatus: 200,
        contentType: sse,
        body: [cut],
        ending,
      });
      expect(parsed.status).toBe('truncated');
      expect(parsed.response?.output.toolCalls.length).toBeGreaterThan(0);
      expect(parsed.response?.output.toolCalls.every((call) => !call.complete)).toBe(true);
      expect(parsed.response?.output.finishReason.unified).toBe('unknown');
    }
    const aborted = openAiChatAdapter.parseResponse({
      httpStatus: 200,
      contentType: sse,
      body: [cut],
      ending: 'client-aborted',
    });
    expect(aborted.status).toBe('aborted');
  });

  it('records an error event mid-stream as an upstream error', () => {
    const body = encoder.encode(
      encodeSse(chatCompletionChunks({ text: 'partial', finishReason: null }, seededRandom(1))) +
        'data: {"error":{"message":"The server had an error","type":"server_error"}}\n\n',
    );
    const parsed = openAiChatAdapter.parseResponse({
      httpStatus: 200,
      contentType: sse,
      body: [body],
      ending: 'finished',
    });
    expect(parsed.status).toBe('upstream-error');
    expect(parsed.error).toBe('The server had an error');
    expect(parsed.response?.output.text).toBe('partial');
  });

  it('treats a stream that finished every choice as complete even without [DONE]', () => {
    const chunks = chatCompletionChunks({ text: 'hi' }, seededRandom(1)).filter(
      (chunk) => chunk !== '[DONE]',
    );
    const parsed = openAiChatAdapter.parseResponse({
      httpStatus: 200,
      contentType: sse,
      body: [encoder.encode(encodeSse(chunks))],
      ending: 'finished',
    });
    expect(parsed.status).toBe('complete');
  });
});

describe('openAiChatAdapter.parseResponse (JSON)', () => {
  it('reads a chat.completion with tool calls', () => {
    const body = encoder.encode(JSON.stringify(chatCompletion(weather)));
    const parsed = openAiChatAdapter.parseResponse({
      httpStatus: 200,
      contentType: 'application/json',
      body: splitBytes(body, [7, 100]),
      ending: 'finished',
    });
    expect(parsed.status).toBe('complete');
    expect(parsed.response?.output.toolCalls.map((call) => call.name)).toEqual([
      'get_weather',
      'get_time',
    ]);
    expect(parsed.response?.id).toBe('chatcmpl-scripted');
  });

  it('records upstream error statuses with the provider message', () => {
    const body = encoder.encode(
      JSON.stringify({
        error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
      }),
    );
    const parsed = openAiChatAdapter.parseResponse({
      httpStatus: 429,
      contentType: 'application/json',
      body: [body],
      ending: 'finished',
    });
    expect(parsed).toEqual({
      response: undefined,
      status: 'upstream-error',
      error: 'HTTP 429: Rate limit reached',
    });
  });
});

describe('openAiChatAdapter.parseRequest', () => {
  it('summarises model, messages, tools and tool_choice', () => {
    const summary = openAiChatAdapter.parseRequest({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather?' },
            { type: 'image_url', image_url: { url: 'data:' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather now',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
            strict: true,
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    expect(summary.model).toBe('gpt-4o-mini');
    expect(summary.stream).toBe(true);
    expect(
      summary.messages.map((message) => [message.role, message.text, message.toolCallId]),
    ).toEqual([
      ['system', 'Be brief.', undefined],
      ['user', 'Weather?', undefined],
      ['assistant', '', undefined],
      ['tool', '{"temp":21}', 'call_1'],
    ]);
    expect(summary.messages[2]?.toolCalls[0]?.arguments).toEqual({
      ok: true,
      value: { city: 'Paris' },
    });
    expect(summary.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Weather now',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
        strict: true,
      },
    ]);
    expect(summary.toolChoice).toEqual({ type: 'tool', name: 'get_weather' });
  });

  it('never throws on unexpected shapes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        openAiChatAdapter.parseRequest(value as never);
      }),
    );
  });
});
