import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CalltapeError } from '../../errors.js';
import type { JsonValue } from '../../trace/trace.js';
import { splitBytes } from '../../../test/support/split-bytes.js';
import { bedrockConverseAdapter as adapter } from './bedrock-converse-adapter.js';
import { binaryBytes, binaryString } from './convert-converse-body.js';
import { encodeEventStream, type StreamEvent } from './event-stream.js';

const fixture = (name: string): Buffer =>
  readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));
/** The AI SDK keeps a recorded stream as one event a line, `{"<type>": payload}`: framed here as Bedrock sends them. */
const events = (name: string): StreamEvent[] =>
  fixture(name)
    .toString('utf8')
    .trim()
    .split('\n')
    .map((line): StreamEvent => {
      const [type, payload] = Object.entries(JSON.parse(line) as Record<string, JsonValue>)[0] as [
        string,
        JsonValue,
      ];
      return { messageType: 'event', type, payload };
    });
const framed = (name: string): Uint8Array => encodeEventStream(events(name));
/** Where a recorded stream is cut inside its third message (the second input delta of a call). */
const insideThird = (name: string): number =>
  encodeEventStream(events(name).slice(0, 2)).length + 5;
const streamType = 'application/vnd.amazon.eventstream';
const parse = (body: readonly Uint8Array[], contentType = streamType, httpStatus = 200) =>
  adapter.parseResponse({ httpStatus, contentType, body, ending: 'finished' });
const route = adapter.route('POST', '/model/us.amazon.nova-pro-v1%3A0/converse-stream', new Map());

describe('bedrock-converse routes', () => {
  it('captures converse and converse-stream with the model decoded from the path, nothing else', () => {
    expect(route).toEqual({
      upstream: 'bedrock',
      path: '/model/us.amazon.nova-pro-v1%3A0/converse-stream',
      model: 'us.amazon.nova-pro-v1:0',
      stream: 'event-stream',
    });
    expect(adapter.route('POST', '/model/m/converse', new Map())?.stream).toBeUndefined();
    for (const path of ['/model/m/invoke', '/model/m/count-tokens', '/guardrail/g/version/1/apply'])
      expect(adapter.route('POST', path, new Map()), path).toBeUndefined();
    expect(adapter.route('GET', '/model/m/converse', new Map())).toBeUndefined();
  });
});

describe('parseRequest', () => {
  it('reads system, tool specs, tool choice, toolUse calls and toolResult blocks (status error → a failed step)', () => {
    const summary = adapter.parseRequest(
      {
        system: [{ text: 'You are terse.' }],
        messages: [
          { role: 'user', content: [{ text: 'Weather in Paris?' }] },
          {
            role: 'assistant',
            content: [
              { text: 'Checking.' },
              {
                toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } },
              },
            ],
          },
          {
            role: 'user',
            content: [
              {
                toolResult: {
                  toolUseId: 'tooluse_1',
                  content: [{ json: { error: 'timeout' } }],
                  status: 'error',
                },
              },
            ],
          },
        ],
        toolConfig: {
          tools: [
            {
              toolSpec: {
                name: 'get_weather',
                description: 'Weather',
                inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } } } },
              },
            },
          ],
          toolChoice: { tool: { name: 'get_weather' } },
        },
      },
      route,
    );
    expect(summary.model).toBe('us.amazon.nova-pro-v1:0');
    expect(summary.stream).toBe(true);
    expect(summary.messages.map((message) => [message.role, message.text])).toEqual([
      ['system', 'You are terse.'],
      ['user', 'Weather in Paris?'],
      ['assistant', 'Checking.'],
      ['tool', '{"error":"timeout"}'],
    ]);
    expect(
      summary.messages[2]?.toolCalls.map((call) => [call.id, call.name, call.argumentsRaw]),
    ).toEqual([['tooluse_1', 'get_weather', '{"city":"Paris"}']]);
    expect(summary.messages[3]).toMatchObject({ toolCallId: 'tooluse_1', isError: true });
    expect(summary.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
        strict: undefined,
      },
    ]);
    expect(summary.toolChoice).toEqual({ type: 'tool', name: 'get_weather' });
  });
});

describe('parseResponse over recorded Bedrock answers', () => {
  it('reads parallel tool use from a whole Converse answer', () => {
    const result = parse([fixture('ai-sdk-bedrock-parallel-tool-calls.json')], 'application/json');
    expect(result.status).toBe('complete');
    expect(result.response?.output.text).toBe(
      "Sure! I'll look up both values simultaneously right away!",
    );
    expect(
      result.response?.output.toolCalls.map((call) => [call.id, call.name, call.argumentsRaw]),
    ).toEqual([
      ['tooluse_hr5juciYZJwUHpRczsw13R', 'get_resistor_value', '{"ref":"R1"}'],
      ['tooluse_AZHw3Ym0S07qOv5NlXj9iJ', 'get_capacitor_value', '{"ref":"C1"}'],
    ]);
    expect(result.response?.output.finishReason).toEqual({
      unified: 'tool-calls',
      raw: 'tool_use',
    });
    expect(result.response?.usage).toMatchObject({
      inputTokens: 694,
      outputTokens: 110,
      totalTokens: 804,
      cachedInputTokens: 0,
    });
  });

  it('reassembles a streamed tool use from its input deltas, the same however the bytes are split (property)', () => {
    const bytes = framed('ai-sdk-bedrock-tool-call.chunks.txt');
    const whole = parse([bytes]);
    expect(whole.status).toBe('complete');
    expect(whole.response?.output.toolCalls).toEqual([
      {
        id: 'tool-use-id',
        index: 0,
        name: 'test-tool',
        argumentsRaw: '{"value":"Sparkle Day"}',
        arguments: { ok: true, value: { value: 'Sparkle Day' } },
        complete: true,
      },
    ]);
    expect(whole.response?.usage).toMatchObject({ inputTokens: 125, outputTokens: 45 });
    fc.assert(
      fc.property(fc.array(fc.nat({ max: bytes.length }), { maxLength: 40 }), (cuts) => {
        expect(parse(splitBytes(bytes, cuts))).toEqual(whole);
      }),
    );
  });

  it('reads the real binary capture of a ConverseStream (text, end_turn, usage)', () => {
    const result = parse([fixture('ai-sdk-bedrock-live-converse-stream.eventstream')]);
    expect(result.status).toBe('complete');
    expect(result.response?.output.text).toBe('OK.');
    expect(result.response?.output.finishReason).toEqual({ unified: 'stop', raw: 'end_turn' });
    expect(result.response?.usage).toMatchObject({ inputTokens: 12, outputTokens: 5 });
  });

  it('marks a stream cut inside a tool use as truncated, its call incomplete and its input kept as sent', () => {
    const bytes = framed('ai-sdk-bedrock-tool-call.chunks.txt');
    const cut = parse([bytes.subarray(0, insideThird('ai-sdk-bedrock-tool-call.chunks.txt'))]);
    expect(cut.status).toBe('truncated');
    expect(
      cut.response?.output.toolCalls.map((call) => [call.argumentsRaw, call.complete]),
    ).toEqual([['{"value":', false]]);
  });

  it('reads an exception message inside a stream, and Bedrock’s error JSON, as upstream errors with the message', () => {
    const inStream = parse([fixture('ai-sdk-bedrock-model-stream-error.eventstream')]);
    expect(inStream.status).toBe('upstream-error');
    expect(inStream.error).toContain('modelStreamErrorException: Model Stream Error');
    const recorded = JSON.parse(
      fixture('ai-sdk-bedrock-validation-error.json').toString('utf8'),
    ) as {
      status: number;
      body: JsonValue;
    };
    const json = parse(
      [Buffer.from(JSON.stringify(recorded.body))],
      'application/json',
      recorded.status,
    );
    expect(json.status).toBe('upstream-error');
    expect(json.error).toContain('The content field in the Message object at messages.1 is empty');
  });
});

describe('errorBody', () => {
  it("answers in Bedrock's shape with the exception name in x-amzn-errortype", () => {
    const miss = new CalltapeError('CASSETTE_MISS', 'no recording');
    expect(adapter.errorBody(miss)).toEqual({ message: 'no recording' });
    expect(adapter.errorHeaders?.(miss)).toEqual({
      'x-amzn-errortype': 'ResourceNotFoundException',
    });
    expect(adapter.errorHeaders?.(new CalltapeError('INVALID_JSON', 'bad'))).toEqual({
      'x-amzn-errortype': 'ValidationException',
    });
    expect(adapter.errorHeaders?.(new CalltapeError('UPSTREAM_UNREACHABLE', 'down'))).toEqual({
      'x-amzn-errortype': 'ServiceUnavailableException',
    });
  });
});

describe('convertBody', () => {
  const calls = fc.uniqueArray(
    fc.record({
      id: fc.stringMatching(/^tooluse_[A-Za-z0-9]{4,8}$/),
      name: fc.constantFrom('get_weather', 'send_email'),
      input: fc.dictionary(fc.constantFrom('city', 'to', 'n'), fc.oneof(fc.string(), fc.integer())),
    }),
    { maxLength: 3, selector: (call) => call.id },
  );
  it('re-expresses a whole answer as valid frames and back without losing a call, text or usage (property)', () => {
    fc.assert(
      fc.property(fc.string(), calls, fc.nat(5000), (text, toolUses, tokens) => {
        const answer = {
          output: {
            message: {
              role: 'assistant',
              content: [
                ...(text !== '' ? [{ text }] : []),
                ...toolUses.map((call) => ({
                  toolUse: { toolUseId: call.id, name: call.name, input: call.input },
                })),
              ],
            },
          },
          stopReason: toolUses.length > 0 ? 'tool_use' : 'end_turn',
          usage: { inputTokens: tokens, outputTokens: 7, totalTokens: tokens + 7 },
          metrics: { latencyMs: 12 },
        };
        const json = binaryString(new TextEncoder().encode(JSON.stringify(answer)));
        const stream = adapter.convertBody(json, { stream: true, includeUsage: true });
        expect(stream?.contentType).toBe(streamType);
        const fromStream = parse([binaryBytes(stream?.body ?? '')]);
        const original = parse([binaryBytes(json)], 'application/json');
        expect(fromStream.status).toBe('complete');
        expect(fromStream.response).toEqual(original.response);
        const back = adapter.convertBody(stream?.body ?? '', { stream: false, includeUsage: true });
        expect(parse([binaryBytes(back?.body ?? '')], 'application/json').response).toEqual(
          original.response,
        );
        // Already in the asked form: the same bytes.
        expect(
          adapter.convertBody(stream?.body ?? '', { stream: true, includeUsage: true })?.body,
        ).toBe(stream?.body);
      }),
      { numRuns: 100 },
    );
  });

  it('does not re-express a stream that did not finish', () => {
    const bytes = framed('ai-sdk-bedrock-tool-call.chunks.txt');
    expect(
      adapter.convertBody(
        binaryString(bytes.subarray(0, insideThird('ai-sdk-bedrock-tool-call.chunks.txt'))),
        {
          stream: false,
          includeUsage: true,
        },
      ),
    ).toBeUndefined();
    expect(
      adapter.convertBody(binaryString(fixture('ai-sdk-bedrock-model-stream-error.eventstream')), {
        stream: false,
        includeUsage: true,
      }),
    ).toBeUndefined();
  });
});
