import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';
import type { ProviderId } from '../../src/trace/trace.js';

/** What a recorded stream must read back as: taken from the source repository's own test assertions. */
export interface RecordedTurn {
  readonly status: 'complete' | 'truncated';
  readonly text: string;
  readonly refusal?: string;
  /** Each call: id, name, its argument string exactly as streamed, and whether the provider finished it. */
  readonly calls: readonly {
    readonly id: string;
    readonly name: string;
    readonly argumentsRaw: string;
    readonly complete: boolean;
  }[];
  readonly finish: { readonly unified: string; readonly raw: string };
  readonly usage: { readonly input: number; readonly output: number };
}

/** A provider response recorded from the real API, kept byte for byte under the adapter's `__fixtures__/`. */
export interface RecordedStream {
  readonly wire: ProviderId;
  /** File name in `src/providers/<wire>/__fixtures__/` (see the README there for source, commit and licence). */
  readonly file: string;
  /**
   * `sse`: the bytes as sent. `json-lines`: one recorded event's JSON per line, framed as SSE when
   * read. `data-lines` / `json-array`: one chunk's JSON per line (Gemini), framed as the `?alt=sse`
   * stream (`data:` events) or as the JSON-array stream when read.
   */
  readonly framing: 'sse' | 'json-lines' | 'data-lines' | 'json-array';
  readonly expected: RecordedTurn;
}

export const recordedStreams: readonly RecordedStream[] = [
  {
    wire: 'openai-chat',
    framing: 'sse',
    file: 'openai-python-text.sse',
    expected: {
      status: 'complete',
      text: "I'm unable to provide real-time weather updates. To get the current weather in San Francisco, I recommend checking a reliable weather website or a weather app.",
      calls: [],
      finish: { unified: 'stop', raw: 'stop' },
      usage: { input: 14, output: 30 },
    },
  },
  {
    wire: 'openai-chat',
    framing: 'sse',
    file: 'openai-python-tool-call.sse',
    expected: {
      status: 'complete',
      text: '',
      calls: [
        {
          id: 'call_c91SqDXlYFuETYv8mUHzz6pp',
          name: 'GetWeatherArgs',
          argumentsRaw: '{"city":"Edinburgh","country":"UK","units":"c"}',
          complete: true,
        },
      ],
      finish: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: { input: 76, output: 24 },
    },
  },
  {
    wire: 'openai-chat',
    framing: 'sse',
    file: 'openai-python-parallel-tool-calls.sse',
    expected: {
      status: 'complete',
      text: '',
      calls: [
        {
          id: 'call_JMW1whyEaYG438VE1OIflxA2',
          name: 'GetWeatherArgs',
          argumentsRaw: '{"city": "Edinburgh", "country": "GB", "units": "c"}',
          complete: true,
        },
        {
          id: 'call_DNYTawLBoN8fj3KN6qU9N1Ou',
          name: 'get_stock_price',
          argumentsRaw: '{"ticker": "AAPL", "exchange": "NASDAQ"}',
          complete: true,
        },
      ],
      finish: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: { input: 149, output: 60 },
    },
  },
  {
    wire: 'openai-chat',
    framing: 'sse',
    file: 'openai-python-max-tokens.sse',
    expected: {
      status: 'complete',
      text: '{"',
      calls: [],
      finish: { unified: 'length', raw: 'length' },
      usage: { input: 79, output: 1 },
    },
  },
  {
    wire: 'openai-chat',
    framing: 'sse',
    file: 'openai-python-refusal.sse',
    expected: {
      status: 'complete',
      text: '',
      refusal: "I'm sorry, I can't assist with that request.",
      calls: [],
      finish: { unified: 'stop', raw: 'stop' },
      usage: { input: 79, output: 11 },
    },
  },
  {
    wire: 'anthropic-messages',
    framing: 'sse',
    file: 'anthropic-sdk-typescript-basic-response.sse',
    expected: {
      status: 'complete',
      text: 'Hello there!',
      calls: [],
      finish: { unified: 'stop', raw: 'end_turn' },
      usage: { input: 11, output: 6 },
    },
  },
  {
    wire: 'anthropic-messages',
    framing: 'sse',
    file: 'anthropic-sdk-typescript-tool-use-response.sse',
    expected: {
      status: 'complete',
      text: "I'll check the current weather in Paris for you.",
      calls: [
        {
          id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn',
          name: 'get_weather',
          argumentsRaw: '{"location": "Paris"}',
          complete: true,
        },
      ],
      finish: { unified: 'tool-calls', raw: 'tool_use' },
      usage: { input: 377, output: 65 },
    },
  },
  {
    // Cut by max_tokens inside the tool input: the message ends normally, the call never got its content_block_stop.
    wire: 'anthropic-messages',
    framing: 'sse',
    file: 'anthropic-sdk-typescript-incomplete-partial-json-response.sse',
    expected: {
      status: 'complete',
      text: "I'll create a comprehensive tax guide for someone with multiple W2s and save it in a file called taxes.txt. Let me do that for you now.",
      calls: [
        {
          id: 'toolu_01EKqbqmZrGRXy18eN7m9kvY',
          name: 'make_file',
          argumentsRaw:
            '{"filename": "taxes.txt", "lines_of_text": [\n"# COMPREHENSIVE TAX GUIDE FOR INDIVIDUALS WITH MULTIPLE W-2s",\n"",\n"## INTRODUCTION",\n"",\n"Filing taxes',
          complete: false,
        },
      ],
      finish: { unified: 'length', raw: 'max_tokens' },
      usage: { input: 450, output: 124 },
    },
  },
  {
    wire: 'openai-responses',
    framing: 'json-lines',
    file: 'ai-sdk-openai-client-tool-search-2.chunks.txt',
    expected: {
      status: 'complete',
      text: '',
      calls: [
        {
          id: 'call_Q7pq6EfVGRnauPLWSSYBGJ1l',
          name: 'get_weather',
          argumentsRaw: '{"location":"San Francisco, CA","unit":"fahrenheit"}',
          complete: true,
        },
      ],
      finish: { unified: 'tool-calls', raw: 'completed' },
      usage: { input: 467, output: 26 },
    },
  },
  {
    // Server-side tool search items (no call_id) before the function call: only the function call is the agent's.
    wire: 'openai-responses',
    framing: 'json-lines',
    file: 'ai-sdk-openai-tool-search-1.chunks.txt',
    expected: {
      status: 'complete',
      text: '',
      calls: [
        {
          id: 'call_pddfxhfOx4gY56zn4vIIEbFp',
          name: 'get_weather',
          argumentsRaw: '{"location":"San Francisco, CA","unit":"fahrenheit"}',
          complete: true,
        },
      ],
      finish: { unified: 'tool-calls', raw: 'completed' },
      usage: { input: 640, output: 46 },
    },
  },
];

/** The fixture as the provider sent it: its bytes, or its JSON lines framed as the SSE events they were. */
export function readRecordedStream(stream: RecordedStream): Uint8Array {
  const bytes = readFileSync(
    join(packageRoot, 'src/providers', stream.wire, '__fixtures__', stream.file),
  );
  if (stream.framing === 'sse') return bytes;
  if (stream.framing === 'json-lines') return framedJsonLines(bytes.toString('utf8'));
  const chunks = bytes
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  return new TextEncoder().encode(
    stream.framing === 'data-lines'
      ? chunks.map((chunk) => `data: ${chunk}\r\n\r\n`).join('')
      : `[${chunks.join('\n,\r\n')}]`,
  );
}

/** Recorded events kept one JSON per line (as the AI SDK keeps them), framed as the SSE events they were. */
export function framedJsonLines(text: string): Uint8Array {
  const events = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(
      (line) =>
        `event: ${String((JSON.parse(line) as { type?: unknown }).type)}\ndata: ${line}\n\n`,
    );
  return new TextEncoder().encode(events.join(''));
}
