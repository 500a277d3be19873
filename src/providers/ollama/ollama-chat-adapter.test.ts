import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ollamaChatLines } from '../../../test/support/ollama-chat-lines.js';
import { seededRandom } from '../../../test/support/random.js';
import { splitBytes } from '../../../test/support/split-bytes.js';
import { CalltapeError } from '../../errors.js';
import { packageRoot } from '../../package-root.js';
import type { ResponseEnding } from '../provider-adapter.js';
import { ollamaChatAdapter } from './ollama-chat-adapter.js';
import { ollamaCallId } from './ollama-tool-call.js';

const ndjson = 'application/x-ndjson';
const json = 'application/json; charset=utf-8';
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const fixture = (name: string): string =>
  readFileSync(join(packageRoot, 'src/providers/ollama/__fixtures__', name), 'utf8');

function parse(
  body: string | readonly Uint8Array[],
  contentType = ndjson,
  options: { status?: number; ending?: ResponseEnding } = {},
) {
  return ollamaChatAdapter.parseResponse({
    httpStatus: options.status ?? 200,
    contentType,
    body: typeof body === 'string' ? [bytes(body)] : body,
    ending: options.ending ?? 'finished',
  });
}

describe('ollamaChatAdapter over the answers recorded in Ollama’s documentation', () => {
  it('reads the streamed tool call, its stand-in id, the reason and the counts', () => {
    const parsed = parse(fixture('ollama-docs-chat-streaming-tools.ndjson'));
    expect(parsed.status).toBe('complete');
    expect(parsed.response?.model).toBe('llama3.2');
    expect(parsed.response?.output.toolCalls).toEqual([
      {
        id: ollamaCallId(0, 'get_weather', '{"city":"Tokyo"}'),
        index: 0,
        name: 'get_weather',
        argumentsRaw: '{"city":"Tokyo"}',
        arguments: { ok: true, value: { city: 'Tokyo' } },
        complete: true,
      },
    ]);
    expect(parsed.response?.output.finishReason).toEqual({ unified: 'tool-calls', raw: 'stop' });
    expect(parsed.response?.usage).toMatchObject({
      inputTokens: 169,
      outputTokens: 15,
      totalTokens: 184,
    });
  });

  it('reads a streamed text answer from a server that sent no done_reason as a normal stop', () => {
    const parsed = parse(fixture('ollama-docs-chat-streaming.ndjson'));
    expect(parsed.status).toBe('complete');
    expect(parsed.response?.output.text).toBe('The');
    expect(parsed.response?.output.finishReason).toEqual({ unified: 'stop', raw: undefined });
    expect(parsed.response?.usage?.outputTokens).toBe(282);
  });

  it('reads the whole answers, with tools and after a tool result', () => {
    const tools = parse(fixture('ollama-docs-chat-tools.json'), json);
    expect(tools.status).toBe('complete');
    expect(
      tools.response?.output.toolCalls.map((call) => [call.name, call.argumentsRaw, call.id]),
    ).toEqual([
      [
        'get_current_weather',
        '{"format":"celsius","location":"Paris, FR"}',
        ollamaCallId(0, 'get_current_weather', '{"format":"celsius","location":"Paris, FR"}'),
      ],
    ]);
    const history = parse(fixture('ollama-docs-chat-history-tools.json'), json);
    expect(history.response?.output.text).toBe('The current temperature in Toronto is 11°C.');
    expect(history.response?.output.finishReason.unified).toBe('stop');
  });

  it('reads each recorded stream the same however its bytes are split (property)', () => {
    for (const name of [
      'ollama-docs-chat-streaming-tools.ndjson',
      'ollama-docs-chat-streaming.ndjson',
    ]) {
      const recorded = bytes(fixture(name));
      const whole = parse([recorded]);
      fc.assert(
        fc.property(fc.array(fc.nat({ max: recorded.length }), { maxLength: 40 }), (cuts) => {
          expect(parse(splitBytes(recorded, cuts))).toEqual(whole);
        }),
        { numRuns: 100 },
      );
    }
  });

  it('gives a call the same id whole or streamed, and converts the recording both ways', () => {
    const streamed = fixture('ollama-docs-chat-streaming-tools.ndjson');
    const whole = ollamaChatAdapter.convertBody(streamed, { stream: false, includeUsage: false });
    expect(whole?.contentType).toContain('application/json');
    const fromWhole = parse(whole?.body ?? '', json).response;
    expect(fromWhole?.output).toEqual(parse(streamed).response?.output);
    expect(fromWhole?.usage).toEqual(parse(streamed).response?.usage);
    const again = ollamaChatAdapter.convertBody(whole?.body ?? '', {
      stream: true,
      includeUsage: false,
    });
    expect(again?.contentType).toBe(ndjson);
    expect(parse(again?.body ?? '').response).toEqual(parse(streamed).response);
  });
});

describe('ollamaChatAdapter.parseResponse', () => {
  const turn = {
    text: 'Checking both. ☃',
    thinking: 'The user wants two cities.',
    calls: [
      { name: 'get_weather', arguments: '{"city":"Zürich"}' },
      { name: 'get_weather', arguments: '{"city":"Tokyo 東京"}' },
    ],
  };

  it('gives calls without ids distinct stand-ins that do not depend on how the stream was cut (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (seed, cuts) => {
          const parsed = parse(splitBytes(bytes(ollamaChatLines(turn, seededRandom(seed))), cuts));
          const ids = parsed.response?.output.toolCalls.map((call) => call.id);
          expect(ids).toEqual([
            ollamaCallId(0, 'get_weather', '{"city":"Zürich"}'),
            ollamaCallId(1, 'get_weather', '{"city":"Tokyo 東京"}'),
          ]);
          expect(new Set(ids).size).toBe(2);
          expect(parsed.response?.output.text).toBe(turn.text);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('keeps the ids Ollama sends', () => {
    const parsed = parse(
      ollamaChatLines(
        { calls: [{ id: 'call_k3v9x0qa', name: 'get_weather', arguments: '{"city":"Oslo"}' }] },
        seededRandom(3),
      ),
    );
    expect(parsed.response?.output.toolCalls[0]?.id).toBe('call_k3v9x0qa');
  });

  it('reads an error line in the middle of a stream (status 200) as an upstream error', () => {
    const lines = ollamaChatLines({ text: 'Yes. I can', doneReason: null }, seededRandom(1));
    const parsed = parse(`${lines}{"error":"an error was encountered while running the model"}\n`);
    expect(parsed.status).toBe('upstream-error');
    expect(parsed.error).toBe('an error was encountered while running the model');
    expect(parsed.response?.output.text).toBe('Yes. I can');
  });

  it("reads Ollama's error envelope with its status", () => {
    const parsed = parse('{"error":"model \\"llama9\\" not found, try pulling it first"}', json, {
      status: 404,
    });
    expect(parsed.status).toBe('upstream-error');
    expect(parsed.error).toBe('HTTP 404: model "llama9" not found, try pulling it first');
  });

  it('marks a stream cut inside a line truncated, its calls incomplete', () => {
    const lines = ollamaChatLines(turn, seededRandom(2));
    const cut = lines.slice(0, lines.lastIndexOf('"done":true') - 30);
    const parsed = parse(cut, ndjson, { ending: 'upstream-failed' });
    expect(parsed.status).toBe('truncated');
    expect(parsed.response?.output.toolCalls.every((call) => !call.complete)).toBe(true);
    expect(ollamaChatAdapter.convertBody(cut, { stream: false, includeUsage: false })).toBe(
      undefined,
    );
  });

  it('maps done_reason length', () => {
    const parsed = parse(
      ollamaChatLines({ text: 'Once upon', doneReason: 'length' }, seededRandom(1)),
    );
    expect(parsed.response?.output.finishReason).toEqual({ unified: 'length', raw: 'length' });
  });

  it('keeps the thinking when converting a stream to the whole answer', () => {
    const whole = ollamaChatAdapter.convertBody(ollamaChatLines(turn, seededRandom(5)), {
      stream: false,
      includeUsage: false,
    });
    expect(JSON.parse(whole?.body ?? '{}')).toMatchObject({
      message: { content: turn.text, thinking: turn.thinking },
      done: true,
      done_reason: 'stop',
    });
  });
});

describe('ollamaChatAdapter requests and errors', () => {
  it('captures POST /api/chat, and records the model list and model card as reads', () => {
    const route = (method: string, path: string) =>
      ollamaChatAdapter.route(method, path, new Map());
    expect(route('POST', '/api/chat')).toEqual({ upstream: 'ollama', path: '/api/chat' });
    expect(route('GET', '/api/tags')).toEqual({
      upstream: 'ollama',
      path: '/api/tags',
      read: true,
    });
    expect(route('POST', '/api/show')).toEqual({
      upstream: 'ollama',
      path: '/api/show',
      read: true,
    });
    // Passed through uncaptured.
    expect(route('GET', '/api/chat')).toBeUndefined();
    expect(route('POST', '/api/generate')).toBeUndefined();
    expect(route('POST', '/api/chats')).toBeUndefined();
  });

  it('reads a read as a round without a conversation, whose error status is an upstream error', () => {
    const route = ollamaChatAdapter.route('POST', '/api/show', new Map());
    expect(ollamaChatAdapter.parseRequest({ model: 'llama3.2' }, route)).toEqual({
      model: 'llama3.2',
      stream: false,
      messages: [],
      tools: [],
      toolChoice: undefined,
    });
    expect(ollamaChatAdapter.requestedForm({}, route).stream).toBe(false);
    const answer = (status: number, body: string) =>
      ollamaChatAdapter.parseResponse({
        httpStatus: status,
        contentType: json,
        body: [bytes(body)],
        ending: 'finished',
        route,
      });
    expect(answer(200, fixture('ollama-docs-tags.json'))).toEqual({
      response: undefined,
      status: 'complete',
      error: undefined,
    });
    expect(answer(404, '{"error":"model \'llama9\' not found"}')).toMatchObject({
      status: 'upstream-error',
      error: "HTTP 404: model 'llama9' not found",
    });
  });

  it('streams unless the body says "stream": false', () => {
    expect(ollamaChatAdapter.requestedForm({ model: 'llama3.2', messages: [] }).stream).toBe(true);
    expect(ollamaChatAdapter.requestedForm({ stream: false }).stream).toBe(false);
    expect(ollamaChatAdapter.parseRequest({ model: 'llama3.2' }).stream).toBe(true);
  });

  it("answers calltape's errors in Ollama's envelope", () => {
    const error = new CalltapeError('CASSETTE_MISS', 'no recording for this request');
    expect(ollamaChatAdapter.errorBody(error)).toEqual({ error: 'no recording for this request' });
  });
});
