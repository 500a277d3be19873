import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicMessagesAdapter } from '../src/providers/anthropic-messages/anthropic-messages-adapter.js';
import { openAiChatAdapter } from '../src/providers/openai-chat/openai-chat-adapter.js';
import { ollamaChatAdapter } from '../src/providers/ollama/ollama-chat-adapter.js';
import { geminiAdapter } from '../src/providers/gemini/gemini-adapter.js';
import { openAiResponsesAdapter } from '../src/providers/openai-responses/openai-responses-adapter.js';
import { responsesEvents, responsesObject } from './support/openai-responses-events.js';
import type { ProviderAdapter } from '../src/providers/provider-adapter.js';
import type { AssistantOutput } from '../src/trace/trace.js';
import { anthropicEvents, anthropicMessage } from './support/anthropic-messages-events.js';
import { ollamaChatLines, ollamaChatResponse } from './support/ollama-chat-lines.js';
import {
  geminiArray,
  geminiChunks,
  geminiResponse,
  geminiSse,
  type ScriptedGeminiTurn,
} from './support/gemini-chunks.js';
import { geminiRecordedStreams } from './support/gemini-recorded-streams.js';
import { chatCompletion, chatCompletionChunks, encodeSse } from './support/openai-chat-chunks.js';
import { seededRandom } from './support/random.js';
import { readRecordedStream, recordedStreams } from './support/recorded-streams.js';
import { splitBytes } from './support/split-bytes.js';

/** A model turn, wire-neutral: what every adapter must read back the same. */
interface Turn {
  readonly text: string;
  readonly calls: readonly { readonly id: string; readonly name: string; readonly args: string }[];
  readonly usage: { readonly input: number; readonly output: number };
  /** Cut the stream before the provider finished it. */
  readonly truncated: boolean;
}

/** How each wire writes a turn (whole and streamed), and its error envelope. */
interface Wire {
  readonly adapter: ProviderAdapter;
  whole(turn: Turn): string;
  stream(turn: Turn, seed: number): string;
  readonly streamContentType: string;
  readonly errorBody: string;
}

const wires: readonly Wire[] = [
  {
    adapter: openAiChatAdapter,
    whole: (turn) =>
      JSON.stringify(
        chatCompletion({
          text: turn.text,
          toolCalls: turn.calls.map((call) => ({
            id: call.id,
            name: call.name,
            arguments: call.args,
          })),
          usage: { prompt_tokens: turn.usage.input, completion_tokens: turn.usage.output },
        }),
      ),
    stream: (turn, seed) =>
      encodeSse(
        chatCompletionChunks(
          {
            text: turn.text,
            toolCalls: turn.calls.map((call) => ({
              id: call.id,
              name: call.name,
              arguments: call.args,
            })),
            usage: { prompt_tokens: turn.usage.input, completion_tokens: turn.usage.output },
            ...(turn.truncated ? { finishReason: null } : {}),
            interleave: seed % 2 === 0,
          },
          seededRandom(seed),
          { includeUsage: true },
        ),
      ),
    streamContentType: 'text/event-stream; charset=utf-8',
    errorBody: JSON.stringify({
      error: {
        message: 'Rate limit reached',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    }),
  },
  {
    adapter: openAiResponsesAdapter,
    whole: (turn) =>
      JSON.stringify(
        responsesObject({
          text: turn.text,
          calls: turn.calls.map((call) => ({
            callId: call.id,
            name: call.name,
            arguments: call.args,
          })),
          usage: { input_tokens: turn.usage.input, output_tokens: turn.usage.output },
        }),
      ),
    stream: (turn, seed) =>
      responsesEvents(
        {
          text: turn.text,
          calls: turn.calls.map((call) => ({
            callId: call.id,
            name: call.name,
            arguments: call.args,
          })),
          usage: { input_tokens: turn.usage.input, output_tokens: turn.usage.output },
          ...(turn.truncated ? { ending: 'cut' as const } : {}),
        },
        seededRandom(seed),
      ),
    streamContentType: 'text/event-stream; charset=utf-8',
    errorBody: JSON.stringify({
      error: {
        message: 'Rate limit reached',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    }),
  },
  {
    adapter: anthropicMessagesAdapter,
    whole: (turn) =>
      JSON.stringify(
        anthropicMessage({
          text: turn.text,
          toolUses: turn.calls.map((call) => ({ id: call.id, name: call.name, input: call.args })),
          usage: { input_tokens: turn.usage.input, output_tokens: turn.usage.output },
        }),
      ),
    stream: (turn, seed) =>
      anthropicEvents(
        {
          text: turn.text,
          toolUses: turn.calls.map((call) => ({ id: call.id, name: call.name, input: call.args })),
          usage: { input_tokens: turn.usage.input, output_tokens: turn.usage.output },
          ...(turn.truncated ? { stopReason: null } : {}),
        },
        seededRandom(seed),
      ),
    streamContentType: 'text/event-stream; charset=utf-8',
    errorBody: JSON.stringify({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Rate limit reached' },
    }),
  },
  {
    adapter: ollamaChatAdapter,
    whole: (turn) =>
      JSON.stringify(
        ollamaChatResponse({
          text: turn.text,
          calls: turn.calls.map((call) => ({ id: call.id, name: call.name, arguments: call.args })),
          usage: { prompt_eval_count: turn.usage.input, eval_count: turn.usage.output },
        }),
      ),
    stream: (turn, seed) =>
      ollamaChatLines(
        {
          text: turn.text,
          calls: turn.calls.map((call) => ({ id: call.id, name: call.name, arguments: call.args })),
          usage: { prompt_eval_count: turn.usage.input, eval_count: turn.usage.output },
          ...(turn.truncated ? { doneReason: null } : {}),
        },
        seededRandom(seed),
      ),
    streamContentType: 'application/x-ndjson',
    errorBody: JSON.stringify({ error: 'Rate limit reached' }),
  },
  ...(['sse', 'array'] as const).map((form): Wire => ({
    adapter: geminiAdapter,
    whole: (turn) => JSON.stringify(geminiResponse(scriptedGemini(turn))),
    stream: (turn, seed) => {
      const chunks = geminiChunks(scriptedGemini(turn), seededRandom(seed));
      return form === 'sse' ? geminiSse(chunks) : geminiArray(chunks, !turn.truncated);
    },
    // The array stream is served as JSON: only its first character tells it from a whole answer.
    streamContentType: form === 'sse' ? 'text/event-stream' : 'application/json; charset=UTF-8',
    errorBody: JSON.stringify({
      error: { code: 429, message: 'Rate limit reached', status: 'RESOURCE_EXHAUSTED' },
    }),
  })),
];

/** A turn as the scripted Gemini answers it (calls with ids, as models that send `functionCall.id` do). */
function scriptedGemini(turn: Turn): ScriptedGeminiTurn {
  return {
    text: turn.text,
    calls: turn.calls.map((call) => ({ id: call.id, name: call.name, args: call.args })),
    usage: { prompt: turn.usage.input, candidates: turn.usage.output },
    ...(turn.truncated ? { finishReason: null } : {}),
  };
}

const argument = fc.oneof(
  fc.constantFrom('Paris', 'Zürich ☃', 'a "quoted" name', 'emoji 🎉 text'),
  fc.string({ maxLength: 12 }),
);
const turns: fc.Arbitrary<Turn> = fc.record({
  text: fc.oneof(
    fc.constant(''),
    fc.constantFrom('Checking.', 'Voilà — 12°C ☁️'),
    fc.string({ maxLength: 20 }),
  ),
  calls: fc.uniqueArray(
    fc.record({
      id: fc.stringMatching(/^call[a-z0-9]{3,6}$/),
      name: fc.constantFrom('get_weather', 'send_email', 'lookup'),
      args: fc
        .dictionary(fc.constantFrom('city', 'to', 'q', 'n'), argument, { maxKeys: 3 })
        .map((value) => JSON.stringify(value)),
    }),
    { maxLength: 3, selector: (call) => call.id },
  ),
  usage: fc.record({
    input: fc.integer({ min: 1, max: 5000 }),
    output: fc.integer({ min: 1, max: 5000 }),
  }),
  truncated: fc.constant(false),
});
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe.each(wires)('adapter contract: $adapter.id', (wire) => {
  const parse = (body: readonly Uint8Array[], contentType: string, status = 200) =>
    wire.adapter.parseResponse({ httpStatus: status, contentType, body, ending: 'finished' });

  it('reads parallel calls, text and usage the same whole or streamed, however the bytes are split (property)', () => {
    fc.assert(
      fc.property(
        turns,
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (turn, seed, cuts) => {
          const whole = parse([bytes(wire.whole(turn))], 'application/json');
          const streamed = parse(
            splitBytes(bytes(wire.stream(turn, seed)), cuts),
            wire.streamContentType,
          );
          for (const result of [whole, streamed]) {
            expect(result.status).toBe('complete');
            const output = result.response?.output;
            expect(output?.text).toBe(turn.text);
            expect(
              output?.toolCalls.map((call) => [
                call.id,
                call.name,
                JSON.parse(call.argumentsRaw),
                call.complete,
              ]),
            ).toEqual(turn.calls.map((call) => [call.id, call.name, JSON.parse(call.args), true]));
            expect(output?.finishReason.unified).toBe(
              turn.calls.length > 0 ? 'tool-calls' : 'stop',
            );
            expect([
              result.response?.usage?.inputTokens,
              result.response?.usage?.outputTokens,
            ]).toEqual([turn.usage.input, turn.usage.output]);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('marks a stream cut before the end as truncated, its calls incomplete and kept as sent', () => {
    fc.assert(
      fc.property(
        turns.filter((turn) => turn.calls.length > 0),
        fc.integer({ min: 1, max: 1000 }),
        (turn, seed) => {
          const result = parse(
            [bytes(wire.stream({ ...turn, truncated: true }, seed))],
            wire.streamContentType,
          );
          expect(result.status).toBe('truncated');
          expect(result.response?.output.toolCalls.every((call) => !call.complete)).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("reads the provider's error envelope as an upstream error with its message", () => {
    const result = parse([bytes(wire.errorBody)], 'application/json', 429);
    expect(result.status).toBe('upstream-error');
    expect(result.error).toContain('Rate limit reached');
  });

  it('re-expresses a whole answer as its stream and back without losing a call (convertBody)', () => {
    fc.assert(
      fc.property(turns, (turn) => {
        const stream = wire.adapter.convertBody(wire.whole(turn), {
          stream: true,
          includeUsage: true,
        });
        const back =
          stream && wire.adapter.convertBody(stream.body, { stream: false, includeUsage: true });
        const original = parse([bytes(wire.whole(turn))], 'application/json').response?.output;
        expect(parse([bytes(stream?.body ?? '')], wire.streamContentType).response?.output).toEqual(
          original,
        );
        expect(parse([bytes(back?.body ?? '')], 'application/json').response?.output).toEqual(
          original,
        );
      }),
      { numRuns: 100 },
    );
  });
});

const adapterFor = (wire: ProviderAdapter['id']): ProviderAdapter =>
  wires.find((candidate) => candidate.adapter.id === wire)?.adapter ??
  expect.fail(`no adapter ${wire}`);

describe.each([...recordedStreams, ...geminiRecordedStreams])(
  'adapter contract over a real recorded stream: $wire $file ($framing)',
  (stream) => {
    const adapter = adapterFor(stream.wire);
    const recorded = readRecordedStream(stream);
    const parse = (body: readonly Uint8Array[]) =>
      adapter.parseResponse({
        httpStatus: 200,
        contentType:
          stream.framing === 'json-array'
            ? 'application/json; charset=UTF-8'
            : 'text/event-stream; charset=utf-8',
        body,
        ending: 'finished',
      });
    const whole = parse([recorded]);

    it('reads the text, calls, finish reason and usage the provider sent', () => {
      const output = whole.response?.output;
      expect(whole.status).toBe(stream.expected.status);
      expect(output?.text).toBe(stream.expected.text);
      expect(output?.refusal).toBe(stream.expected.refusal);
      expect(
        output?.toolCalls.map((call) => ({
          id: call.id,
          name: call.name,
          argumentsRaw: call.argumentsRaw,
          complete: call.complete,
        })),
      ).toEqual(stream.expected.calls);
      expect(output?.finishReason).toEqual(stream.expected.finish);
      expect([whole.response?.usage?.inputTokens, whole.response?.usage?.outputTokens]).toEqual([
        stream.expected.usage.input,
        stream.expected.usage.output,
      ]);
    });

    it('reads the same however the recorded bytes are split (property)', () => {
      fc.assert(
        fc.property(fc.array(fc.nat({ max: recorded.length }), { maxLength: 40 }), (cuts) => {
          expect(parse(splitBytes(recorded, cuts))).toEqual(whole);
        }),
        { numRuns: 100 },
      );
    });

    it('re-expresses the recorded stream as the whole answer and back without losing a call (convertBody)', () => {
      const text = new TextDecoder().decode(recorded);
      const json = adapter.convertBody(text, { stream: false, includeUsage: true });
      if (
        stream.expected.status !== 'complete' ||
        stream.expected.calls.some((call) => !call.complete)
      ) {
        // An unfinished call cannot become a whole answer without inventing its end.
        expect(json).toBeUndefined();
        return;
      }
      // Anthropic's whole message carries tool input as an object, so the argument text comes back re-serialised
      // (`{"location": "Paris"}` → `{"location":"Paris"}`): the parsed arguments must survive, the spacing cannot.
      const meaning = (output: AssistantOutput | undefined) =>
        stream.wire === 'anthropic-messages'
          ? output && {
              ...output,
              toolCalls: output.toolCalls.map(({ argumentsRaw: _raw, ...call }) => call),
            }
          : output;
      const fromJson = adapter.parseResponse({
        httpStatus: 200,
        contentType: 'application/json',
        body: [bytes(json?.body ?? '')],
        ending: 'finished',
      });
      expect(meaning(fromJson.response?.output)).toEqual(meaning(whole.response?.output));
      const again = adapter.convertBody(json?.body ?? '', { stream: true, includeUsage: true });
      expect(meaning(parse([bytes(again?.body ?? '')]).response?.output)).toEqual(
        meaning(whole.response?.output),
      );
    });
  },
);
