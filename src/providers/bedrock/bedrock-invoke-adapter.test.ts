import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitBytes } from '../../../test/support/split-bytes.js';
import { anthropicMessagesAdapter } from '../anthropic-messages/anthropic-messages-adapter.js';
import { resolveWire } from '../adapters.js';
import { bedrockInvokeAdapter as adapter } from './bedrock-invoke-adapter.js';
import { encodeEventStream } from './event-stream.js';

/** Anthropic's recorded tool-use stream, as the SSE the Messages API sends. */
const sse = readFileSync(
  new URL(
    '../anthropic-messages/__fixtures__/anthropic-sdk-typescript-tool-use-response.sse',
    import.meta.url,
  ),
);
/**
 * The same events as Bedrock's InvokeModelWithResponseStream sends them: one `chunk` frame per
 * event, its JSON in base64 `bytes`.
 */
const frames = encodeEventStream(
  sse
    .toString('utf8')
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => ({
      messageType: 'event',
      type: 'chunk',
      payload: { bytes: Buffer.from(line.slice(6)).toString('base64') },
    })),
);
const streamed = (body: readonly Uint8Array[]) =>
  adapter.parseResponse({
    httpStatus: 200,
    contentType: 'application/vnd.amazon.eventstream',
    body,
    ending: 'finished',
  });

describe('bedrock-invoke (Anthropic Messages bodies on InvokeModel)', () => {
  it('routes invoke and invoke-with-response-stream, and leaves converse to the Converse adapter', () => {
    expect(
      resolveWire('POST', '/model/anthropic.claude-sonnet-4-5-v1%3A0/invoke')?.adapter.id,
    ).toBe('bedrock-invoke');
    expect(resolveWire('POST', '/model/m/invoke-with-response-stream')?.route).toEqual({
      upstream: 'bedrock',
      path: '/model/m/invoke-with-response-stream',
      model: 'm',
      stream: 'event-stream',
    });
    expect(resolveWire('POST', '/model/m/converse')?.adapter.id).toBe('bedrock-converse');
  });

  it('reads the Messages body with anthropic_version, the model from the path', () => {
    const route = adapter.route(
      'POST',
      '/model/anthropic.claude-sonnet-4-5-v1%3A0/invoke',
      new Map(),
    );
    const summary = adapter.parseRequest(
      {
        anthropic_version: 'bedrock-2023-05-31',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
      },
      route,
    );
    expect(summary.model).toBe('anthropic.claude-sonnet-4-5-v1:0');
    expect(summary.stream).toBe(false);
    expect(summary.tools.map((tool) => tool.name)).toEqual(['get_weather']);
  });

  it('reads the same turn from the wrapped stream as the Messages adapter does from the SSE, however the bytes are split (property)', () => {
    const direct = anthropicMessagesAdapter.parseResponse({
      httpStatus: 200,
      contentType: 'text/event-stream',
      body: [sse],
      ending: 'finished',
    });
    const whole = streamed([frames]);
    expect(whole.status).toBe('complete');
    expect(whole.response?.output.toolCalls.map((call) => call.name)).toEqual(['get_weather']);
    expect(whole.response).toEqual(direct.response);
    fc.assert(
      fc.property(fc.array(fc.nat({ max: frames.length }), { maxLength: 40 }), (cuts) => {
        expect(streamed(splitBytes(frames, cuts))).toEqual(whole);
      }),
      { numRuns: 100 },
    );
  });

  it('marks a stream cut inside a frame as truncated', () => {
    expect(streamed([frames.subarray(0, frames.length - 40)]).status).toBe('truncated');
  });
});
