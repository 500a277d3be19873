/**
 * Tools Gemini runs itself. The code execution answer is the AI SDK's recording of the live API
 * (see `__fixtures__/README.md`); no recording with `groundingMetadata` or `urlContextMetadata`
 * keeps them unsanitised, so those are the fields the API reference defines
 * (https://ai.google.dev/api/generate-content#GroundingMetadata, #UrlContextMetadata).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CalltapeError } from '../../errors.js';
import type { JsonValue } from '../../trace/trace.js';
import { geminiArray, geminiSse } from '../../../test/support/gemini-chunks.js';
import { writeGeminiAnswer } from './convert-gemini-body.js';
import { geminiAdapter } from './gemini-adapter.js';

const parse = (body: string, status = 200, contentType = 'application/json') =>
  geminiAdapter.parseResponse({
    httpStatus: status,
    contentType,
    body: [new TextEncoder().encode(body)],
    ending: 'finished',
  });
const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8');

describe('Gemini hosted calls', () => {
  it('reads code execution (the recorded answer): the code, and its two results, one failed', () => {
    const output = parse(fixture('ai-sdk-google-code-execution-multiple-results.json')).response
      ?.output;
    expect(output?.toolCalls).toEqual([]);
    expect(output?.finishReason).toEqual({ unified: 'stop', raw: 'STOP' });
    expect(output?.hostedCalls).toEqual([
      expect.objectContaining({
        name: 'code_execution',
        kind: 'executableCode',
        arguments: { ok: true, value: { language: 'PYTHON', code: "print('ok')\nprint(1/0)" } },
        complete: true,
        result: {
          text: expect.stringMatching(/^ok\ndivision by zero\n/) as unknown,
          isError: true,
        },
      }),
    ]);
  });

  it('reads the same code execution streamed, and a stream cut before its result as an incomplete call', () => {
    const whole = JSON.parse(fixture('ai-sdk-google-code-execution-multiple-results.json')) as {
      [key: string]: JsonValue;
    };
    const stream = writeGeminiAnswer(whole, 'sse');
    expect(parse(stream, 200, 'text/event-stream').response?.output).toEqual(
      parse(JSON.stringify(whole)).response?.output,
    );
    const firstChunk = stream.slice(0, stream.indexOf('\r\n\r\n') + 4);
    const cut = parse(firstChunk, 200, 'text/event-stream');
    expect(cut.status).toBe('truncated');
    expect(cut.response?.output.hostedCalls?.[0]).toMatchObject({
      complete: false,
      result: undefined,
    });
  });

  it('reads Google Search grounding and URL context as hosted calls, a failed fetch as failed', () => {
    const response = {
      candidates: [
        {
          content: { parts: [{ text: 'Spain won Euro 2024.' }], role: 'model' },
          finishReason: 'STOP',
          groundingMetadata: {
            webSearchQueries: ['who won euro 2024'],
            groundingChunks: [{ web: { uri: 'https://example.com/euro', title: 'example.com' } }],
            searchEntryPoint: { renderedContent: '<style></style>' },
          },
          urlContextMetadata: {
            urlMetadata: [
              {
                retrievedUrl: 'https://example.com/a',
                urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS',
              },
              {
                retrievedUrl: 'https://example.com/b',
                urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_ERROR',
              },
            ],
          },
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    };
    const hosted = parse(JSON.stringify(response)).response?.output.hostedCalls;
    expect(hosted?.map((call) => [call.name, call.kind, call.arguments, call.result])).toEqual([
      [
        'google_search',
        'groundingMetadata',
        { ok: true, value: { queries: ['who won euro 2024'] } },
        { text: 'https://example.com/euro', isError: false },
      ],
      [
        'url_context',
        'urlContextMetadata',
        { ok: true, value: { urls: ['https://example.com/a', 'https://example.com/b'] } },
        {
          text: 'https://example.com/a URL_RETRIEVAL_STATUS_SUCCESS\nhttps://example.com/b URL_RETRIEVAL_STATUS_ERROR',
          isError: true,
        },
      ],
    ]);
  });
});

describe('Gemini errors', () => {
  it("reads Google's error envelope (the recorded 429), bare, as an array stream's chunk, or inside an SSE stream", () => {
    const recorded = fixture('ai-sdk-google-429-retry-info.json');
    expect(parse(recorded, 429)).toMatchObject({
      status: 'upstream-error',
      error:
        'HTTP 429: RESOURCE_EXHAUSTED: You exceeded your current quota, please check your plan.',
    });
    expect(parse(`[${recorded}]`, 429).error).toContain('RESOURCE_EXHAUSTED');
    const midStream = geminiSse([
      { candidates: [{ content: { parts: [{ text: 'Hel' }], role: 'model' }, index: 0 }] },
      { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } },
    ]);
    expect(parse(midStream, 200, 'text/event-stream')).toMatchObject({
      status: 'upstream-error',
      error: 'HTTP 200: UNAVAILABLE: The model is overloaded.',
    });
  });

  it('marks an array stream cut inside an element as truncated, keeping the chunks before it', () => {
    const chunks = [
      { candidates: [{ content: { parts: [{ text: 'Hello' }], role: 'model' }, index: 0 }] },
      {
        candidates: [
          {
            content: { parts: [{ text: ' world' }], role: 'model' },
            finishReason: 'STOP',
            index: 0,
          },
        ],
      },
    ];
    const body = geminiArray(chunks);
    const cut = parse(body.slice(0, body.lastIndexOf('world')));
    expect(cut.status).toBe('truncated');
    expect(cut.response?.output.text).toBe('Hello');
    expect(parse(geminiArray(chunks, false)).status).toBe('truncated');
    expect(parse(body).status).toBe('complete');
  });

  it.each([
    ['INVALID_REQUEST', 400, 'INVALID_ARGUMENT'],
    ['BODY_TOO_LARGE', 413, 'INVALID_ARGUMENT'],
    ['NO_API_KEY', 401, 'UNAUTHENTICATED'],
    ['STRICT_TOOLS', 403, 'PERMISSION_DENIED'],
    ['CASSETTE_MISS', 404, 'NOT_FOUND'],
    ['UPSTREAM_UNREACHABLE', 502, 'UNAVAILABLE'],
    ['UPSTREAM_TIMEOUT', 504, 'DEADLINE_EXCEEDED'],
    ['MOCK_LOOP', 508, 'INTERNAL'],
  ] as const)('answers %s in Google shape: %i %s', (code, status, name) => {
    expect(geminiAdapter.errorBody(new CalltapeError(code, 'calltape: something'))).toEqual({
      error: { code: status, message: 'calltape: something', status: name },
    });
  });
});
