/**
 * Tools the provider runs itself (hosted tools), read off real recorded responses. The fixtures
 * are the Vercel AI SDK's recordings of the live APIs (see the README in each `__fixtures__/`):
 * Responses `mcp_call`, `code_interpreter_call`, `file_search_call`, `web_search_call` items;
 * Anthropic `mcp_tool_use` + `mcp_tool_result`, `server_tool_use` + `bash_code_execution_tool_result`
 * / `text_editor_code_execution_tool_result` / `web_fetch_tool_result` (an error). The failure
 * shapes that no recording holds are the recorded items with the fields the wire types define
 * for failures (openai-node `ResponseOutputItem.McpCall.error` / `status: 'failed'`,
 * `ResponseFunctionWebSearch.status: 'failed'`; anthropic-sdk-typescript
 * `BetaMCPToolResultBlock.is_error`, `BetaBashCodeExecutionResultBlock.return_code`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/package-root.js';
import { anthropicMessagesAdapter } from '../src/providers/anthropic-messages/anthropic-messages-adapter.js';
import { openAiResponsesAdapter } from '../src/providers/openai-responses/openai-responses-adapter.js';
import type { ProviderAdapter } from '../src/providers/provider-adapter.js';
import type { HostedToolCall, JsonValue, ProviderId } from '../src/trace/trace.js';
import { framedJsonLines } from './support/recorded-streams.js';
import { splitBytes } from './support/split-bytes.js';

interface HostedExpectation {
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  readonly server: string | undefined;
  readonly isError: boolean;
  /** The result text starts with this. */
  readonly text: string;
}

interface HostedFixture {
  readonly wire: Extract<ProviderId, 'openai-responses' | 'anthropic-messages'>;
  readonly file: string;
  readonly form: 'stream' | 'whole';
  readonly hosted: readonly HostedExpectation[];
  /** The first hosted call's parsed arguments. */
  readonly firstArguments: JsonValue;
}

const fixtures: readonly HostedFixture[] = [
  {
    wire: 'openai-responses',
    file: 'ai-sdk-openai-mcp-tool.1.chunks.txt',
    form: 'stream',
    hosted: [
      {
        id: 'mcp_0c72b1033351981300690ccf7fa1f0819392a313d0805746c8',
        kind: 'mcp_call',
        name: 'web_search_exa',
        server: 'dmcp',
        isError: false,
        text: '{"requestId": "d9c62fa7c1129e16e2131c3996ea8f6b"',
      },
      {
        id: 'mcp_0c72b1033351981300690ccf8bdcd8819383bd64316c8519a2',
        kind: 'mcp_call',
        name: 'web_search_exa',
        server: 'dmcp',
        isError: false,
        text: '{"requestId": "7ff4bca9a3c9eadc6acd476d6aa02547"',
      },
    ],
    firstArguments: {
      query: '2025 New York City mayoral election results Nov 2025 latest results',
      numResults: 5,
    },
  },
  {
    wire: 'openai-responses',
    file: 'ai-sdk-openai-code-interpreter-tool.1.chunks.txt',
    form: 'stream',
    hosted: [
      ['ci_68c2e6f7b72c8193ba1f552552c8dc9202d3a5742c7ddae9', '(2, 12, 69868, 6.9868)'],
      [
        'ci_68c2e6fd57948193aa93df6bdb00a86d02d3a5742c7ddae9',
        "(PosixPath('/mnt/data/roll2dice_sums_10000.csv'), True, 10000)",
      ],
      ['ci_68c2e701a23081939c93b6fb5bb952d302d3a5742c7ddae9', '[6, 7, 2, 5, 5, 11'],
    ].map(([id, text]) => ({
      id: id as string,
      kind: 'code_interpreter_call',
      name: 'code_interpreter',
      server: undefined,
      isError: false,
      text: text as string,
    })),
    firstArguments: {
      code: expect.stringMatching(/^import random, math\nN=10000\n/) as JsonValue,
    },
  },
  {
    wire: 'openai-responses',
    file: 'ai-sdk-openai-file-search-tool.2.chunks.txt',
    form: 'stream',
    hosted: [
      {
        id: 'fs_06456cb9918b63780068cacd74a1dc81a1bf68dd57f140b4b6',
        kind: 'file_search_call',
        name: 'file_search',
        server: undefined,
        isError: false,
        text: 'AI 1\n\nAI\nGenerative artificial intelligence',
      },
    ],
    firstArguments: {
      queries: [
        'What is an embedding model according to this document?',
        'What is an embedding model definition in this document?',
        'How does the document define an embedding model?',
      ],
    },
  },
  {
    wire: 'openai-responses',
    file: 'ai-sdk-openai-web-search-tool.1.json',
    form: 'whole',
    hosted: [
      ['ws_0953eda47ee1741200693330682c988195aaa470a8cc51dfe4', 'https://www.theverge.com/'],
      ['ws_0953eda47ee17412006933306f501c8195b9d3dfba4c547834', ''],
      ['ws_0953eda47ee1741200693330740e248195a2c77632e480424b', ''],
    ].map(([id, text]) => ({
      id: id as string,
      kind: 'web_search_call',
      name: 'web_search',
      server: undefined,
      isError: false,
      text: text as string,
    })),
    firstArguments: expect.objectContaining({
      type: 'search',
      query: 'tech news today December 5 2025',
    }) as JsonValue,
  },
  {
    wire: 'anthropic-messages',
    file: 'ai-sdk-anthropic-mcp.1.chunks.txt',
    form: 'stream',
    hosted: [
      {
        id: 'mcptoolu_017CuqaJcXe5ZHJjaz3KS1AT',
        kind: 'mcp_tool_use',
        name: 'echo',
        server: 'echo',
        isError: false,
        text: 'Tool echo: hello world',
      },
    ],
    firstArguments: { message: 'hello world' },
  },
  {
    wire: 'anthropic-messages',
    file: 'ai-sdk-anthropic-code-execution-20250825.1.chunks.txt',
    form: 'stream',
    hosted: [
      {
        id: 'srvtoolu_0112cP8RpnKv67t2cscmN4ia',
        kind: 'server_tool_use',
        name: 'text_editor_code_execution',
        server: undefined,
        isError: false,
        text: '{"type":"text_editor_code_execution_create_result"',
      },
      {
        id: 'srvtoolu_01K2E2j5mkxbtLqNBc6RJHds',
        kind: 'server_tool_use',
        name: 'bash_code_execution',
        server: undefined,
        isError: false,
        text: 'The 10th Fibonacci number is: 34',
      },
    ],
    firstArguments: expect.objectContaining({
      command: 'create',
      path: '/tmp/fibonacci.py',
    }) as JsonValue,
  },
  {
    wire: 'anthropic-messages',
    file: 'ai-sdk-anthropic-web-fetch-tool.error.json',
    form: 'whole',
    hosted: [
      {
        id: 'srvtoolu_013gia34XNKyTfwHxaPCKEVd',
        kind: 'server_tool_use',
        name: 'web_fetch',
        server: undefined,
        isError: true,
        text: 'unavailable',
      },
    ],
    firstArguments: {
      url: 'https://raw.githubusercontent.com/vercel/ai/blob/main/examples/ai-functions/data/ai.pdf',
    },
  },
];

const adapterOf = (wire: HostedFixture['wire']): ProviderAdapter =>
  wire === 'openai-responses' ? openAiResponsesAdapter : anthropicMessagesAdapter;

function fixtureText(wire: string, file: string): string {
  return readFileSync(join(packageRoot, 'src/providers', wire, '__fixtures__', file), 'utf8');
}

function fixtureBytes(fixture: HostedFixture): Uint8Array {
  const text = fixtureText(fixture.wire, fixture.file);
  return fixture.form === 'stream' ? framedJsonLines(text) : new TextEncoder().encode(text);
}

function parse(
  adapter: ProviderAdapter,
  form: 'stream' | 'whole',
  body: readonly Uint8Array[],
  ending: 'finished' | 'upstream-failed' = 'finished',
) {
  return adapter.parseResponse({
    httpStatus: 200,
    contentType: form === 'stream' ? 'text/event-stream; charset=utf-8' : 'application/json',
    body,
    ending,
  });
}

const summary = (call: HostedToolCall) => ({
  id: call.id,
  kind: call.kind,
  name: call.name,
  server: call.server,
  isError: call.result?.isError,
  text: call.result?.text.slice(0, 80),
});

describe.each(fixtures)('hosted tool calls in a real recorded answer: $file', (fixture) => {
  const adapter = adapterOf(fixture.wire);
  const bytes = fixtureBytes(fixture);
  const parsed = parse(adapter, fixture.form, [bytes]);

  it('puts each hosted call in the trace with its server, arguments and result, apart from the agent’s calls', () => {
    const output = parsed.response?.output;
    expect(parsed.status).toBe('complete');
    expect(output?.toolCalls).toEqual([]);
    // Nothing is left for the agent to run: the turn ended, it did not stop for tools.
    expect(output?.finishReason.unified).toBe('stop');
    const hosted = output?.hostedCalls ?? [];
    expect(hosted.map(summary)).toEqual(
      fixture.hosted.map((expected) => ({ ...expected, text: expect.stringMatching(/.*/) })),
    );
    hosted.forEach((call, index) => {
      expect(call.result?.text.startsWith(fixture.hosted[index]?.text ?? '')).toBe(true);
      expect(call.complete).toBe(true);
      expect(call.index).toBe(index);
    });
    expect(hosted[0]?.arguments).toEqual({ ok: true, value: fixture.firstArguments });
  });

  if (fixture.form === 'stream')
    it('reads the same however the recorded bytes are split (property)', () => {
      fc.assert(
        fc.property(fc.array(fc.nat({ max: bytes.length }), { maxLength: 30 }), (cuts) => {
          expect(parse(adapter, 'stream', splitBytes(bytes, cuts))).toEqual(parsed);
        }),
        { numRuns: 30 },
      );
    });

  it('keeps the hosted calls and their results when the answer is re-expressed in the other form (replay to the other form)', () => {
    const text = new TextDecoder().decode(bytes);
    const other = adapter.convertBody(text, {
      stream: fixture.form === 'whole',
      includeUsage: true,
    });
    expect(other).toBeDefined();
    const again = parse(adapter, fixture.form === 'whole' ? 'stream' : 'whole', [
      new TextEncoder().encode(other?.body ?? ''),
    ]);
    // Anthropic's whole message carries input as an object: the argument text is re-serialised, its meaning kept.
    const meaning = (calls: readonly HostedToolCall[] | undefined) =>
      calls?.map(({ argumentsRaw: _raw, ...call }) => call);
    expect(meaning(again.response?.output.hostedCalls)).toEqual(
      meaning(parsed.response?.output.hostedCalls),
    );
  });
});

describe('hosted tool calls in a stream that was cut', () => {
  const lines = fixtureText('openai-responses', 'ai-sdk-openai-mcp-tool.1.chunks.txt')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const cutAt = (predicate: (event: { type: string; item_id?: string }) => boolean) => {
    const end = lines.findIndex((line) => predicate(JSON.parse(line) as { type: string }));
    return parse(
      openAiResponsesAdapter,
      'stream',
      [framedJsonLines(lines.slice(0, end).join('\n'))],
      'upstream-failed',
    );
  };

  it('Responses: a finished mcp_call keeps its result; the one cut mid-arguments is incomplete, with what was streamed', () => {
    const second = 'mcp_0c72b1033351981300690ccf8bdcd8819383bd64316c8519a2';
    const cut = cutAt(
      (event) => event.type === 'response.mcp_call_arguments.done' && event.item_id === second,
    );
    expect(cut.status).toBe('truncated');
    const [first, cutCall] = cut.response?.output.hostedCalls ?? [];
    expect(first?.complete).toBe(true);
    expect(first?.result?.isError).toBe(false);
    expect(first?.server).toBe('dmcp');
    expect(cutCall?.id).toBe(second);
    expect(cutCall?.complete).toBe(false);
    expect(cutCall?.result).toBeUndefined();
    expect(cutCall?.argumentsRaw).toContain('NYC Board of Elections');
  });

  it('Anthropic: an mcp_tool_use whose result never came has no result and is incomplete', () => {
    const events = fixtureText('anthropic-messages', 'ai-sdk-anthropic-mcp.1.chunks.txt')
      .split('\n')
      .filter((line) => line.trim() !== '');
    const end = events.findIndex((line) => line.includes('"mcp_tool_result"'));
    const cut = parse(
      anthropicMessagesAdapter,
      'stream',
      [framedJsonLines(events.slice(0, end).join('\n'))],
      'upstream-failed',
    );
    const [call] = cut.response?.output.hostedCalls ?? [];
    expect(cut.status).toBe('truncated');
    expect(call?.name).toBe('echo');
    expect(call?.argumentsRaw).toBe('{"message": "hello world"}');
    expect(call?.complete).toBe(false);
    expect(call?.result).toBeUndefined();
  });
});

describe('hosted tool failures', () => {
  const responses = JSON.parse(
    fixtureText('openai-responses', 'ai-sdk-openai-mcp-tool.1.json'),
  ) as {
    output: Record<string, JsonValue>[];
  };
  const withItem = (change: (item: Record<string, JsonValue>) => Record<string, JsonValue>) =>
    parse(openAiResponsesAdapter, 'whole', [
      new TextEncoder().encode(
        JSON.stringify({
          ...responses,
          output: responses.output.map((item) =>
            item['type'] === 'mcp_call' ? change(item) : item,
          ),
        }),
      ),
    ]).response?.output.hostedCalls?.[0];

  it('Responses: an mcp_call with an error is a failed call whose result is the error', () => {
    const call = withItem((item) => ({
      ...item,
      status: 'failed',
      output: null,
      error: 'Error calling tool web_search_exa: timed out',
    }));
    expect(call?.result).toEqual({
      text: 'Error calling tool web_search_exa: timed out',
      isError: true,
    });
  });

  it('Responses: a web_search_call with status failed is a failed call', () => {
    const call = withItem(() => ({
      id: 'ws_failed',
      type: 'web_search_call',
      status: 'failed',
      action: { type: 'search', query: 'x' },
    }));
    expect([call?.name, call?.complete, call?.result?.isError]).toEqual(['web_search', true, true]);
  });

  const anthropic = JSON.parse(
    fixtureText('anthropic-messages', 'ai-sdk-anthropic-mcp.1.json'),
  ) as {
    content: Record<string, JsonValue>[];
  };
  const withBlocks = (blocks: Record<string, JsonValue>[]) =>
    parse(anthropicMessagesAdapter, 'whole', [
      new TextEncoder().encode(JSON.stringify({ ...anthropic, content: blocks })),
    ]).response?.output.hostedCalls;

  it('Anthropic: an mcp_tool_result with is_error is a failed call', () => {
    const [call] =
      withBlocks(
        anthropic.content.map((block) =>
          block['type'] === 'mcp_tool_result' ? { ...block, is_error: true } : block,
        ),
      ) ?? [];
    expect(call?.result).toEqual({ text: 'Tool echo: hello world', isError: true });
  });

  it('Anthropic: code that exited non-zero is a failed call, with what it printed', () => {
    const [call] =
      withBlocks([
        {
          type: 'server_tool_use',
          id: 'srvtoolu_exit',
          name: 'bash_code_execution',
          input: { command: 'false' },
        },
        {
          type: 'bash_code_execution_tool_result',
          tool_use_id: 'srvtoolu_exit',
          content: {
            type: 'bash_code_execution_result',
            stdout: '',
            stderr: 'boom',
            return_code: 1,
            content: [],
          },
        },
      ]) ?? [];
    expect(call?.result).toEqual({ text: 'boom', isError: true });
  });
});
