import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from '../../src/config/config.js';
import type { OtlpSettings } from '../../src/otel/otlp-settings.js';
import { anthropicEvents } from '../support/anthropic-messages-events.js';
import { chatCompletion, chatCompletionChunks, encodeSse } from '../support/openai-chat-chunks.js';
import {
  startOtlpReceiver,
  type OtlpReceiver,
  type ReceivedSpan,
} from '../support/otlp-receiver.js';
import { seededRandom } from '../support/random.js';
import {
  ask,
  bankModel,
  bankPolicies,
  metricValue,
  writePolicies,
} from '../support/shadow-bank.js';
import {
  startScriptedUpstream,
  type ReceivedRequest,
  type ScriptedResponse,
  type ScriptedUpstream,
} from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

const apiKey = 'sk-otel-test-secret-0123456789';
/** OTLP/protobuf, the default protocol: the receiver decodes it with the OTel protobuf root. */
const otlp = (content = false, url?: string): OtlpSettings => ({
  url: url === undefined ? undefined : `${url}/v1/traces`,
  protocol: 'http/protobuf',
  captureContent: content,
});

/** A weather model: two parallel calls first, then a summary once both results are back. */
function weatherModel(request: ReceivedRequest, callNumber: number): ScriptedResponse {
  if (request.url.startsWith('/v1/messages')) {
    const body = JSON.parse(request.body) as { messages: { content: unknown }[] };
    const answered = JSON.stringify(body.messages).includes('tool_result');
    const turn = answered
      ? { text: 'Sunny.' }
      : {
          toolUses: [{ id: 'toolu_paris', name: 'get_weather', input: '{"city":"Paris"}' }],
          usage: { input_tokens: 31, output_tokens: 9 },
        };
    return {
      kind: 'sse',
      body: anthropicEvents(turn, seededRandom(callNumber)),
      headers: { 'content-type': 'text/event-stream' },
    };
  }
  const body = JSON.parse(request.body) as { stream?: boolean; messages: { role: string }[] };
  const answered = body.messages.some((message) => message.role === 'tool');
  const turn = answered
    ? { text: 'Paris is sunny, Tokyo rainy.', usage: { prompt_tokens: 80, completion_tokens: 7 } }
    : {
        toolCalls: [
          { id: 'call_paris', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { id: 'call_tokyo', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
        ],
        usage: { prompt_tokens: 50, completion_tokens: 20 },
        interleave: true,
      };
  if (!body.stream) return { kind: 'json', body: chatCompletion(turn) };
  return {
    kind: 'sse',
    body: encodeSse(
      chatCompletionChunks(turn, seededRandom(callNumber + 3), { includeUsage: true }),
    ),
    split: { seed: callNumber, maxPiece: 13 },
  };
}

const weatherTool: OpenAI.Chat.Completions.ChatCompletionFunctionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather in a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
};

/** The agent: streams, runs both calls, sends their results back in one session. */
async function weatherAgent(client: OpenAI, session: string): Promise<string> {
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
    { role: 'user', content: 'Weather in Paris and Tokyo?' },
  ];
  const headers = { 'x-calltape-session': session };
  const first = await client.chat.completions
    .stream(
      {
        model: 'gpt-test',
        messages,
        tools: [weatherTool],
        stream: true,
        stream_options: { include_usage: true },
      },
      { headers },
    )
    .finalChatCompletion();
  const message = first.choices[0]?.message;
  if (!message?.tool_calls) throw new Error('no tool calls');
  messages.push(message);
  for (const call of message.tool_calls)
    messages.push({
      role: 'tool',
      tool_call_id: call.id,
      content: call.id === 'call_paris' ? '{"sky":"sunny"}' : '{"sky":"rainy"}',
    });
  const second = await client.chat.completions.create(
    { model: 'gpt-test', messages, tools: [weatherTool] },
    { headers },
  );
  return second.choices[0]?.message.content ?? '';
}

let upstream: ScriptedUpstream;
let receiver: OtlpReceiver;
beforeAll(async () => {
  upstream = await startScriptedUpstream(weatherModel);
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await upstream.close();
  await receiver.close();
});

async function proxied(
  otlp: OtlpSettings,
  overrides: Partial<Config> = {},
): Promise<{
  proxy: Awaited<ReturnType<typeof startTestProxy>>;
  openai: OpenAI;
  anthropic: Anthropic;
}> {
  const proxy = await startTestProxy(
    upstream.url,
    { anthropicUpstream: upstream.url, mode: 'record', ...overrides },
    { otlp },
  );
  return {
    proxy,
    openai: new OpenAI({ apiKey, baseURL: proxy.baseUrl, maxRetries: 0 }),
    anthropic: new Anthropic({ apiKey, baseURL: proxy.url, maxRetries: 0 }),
  };
}

const of = (spans: readonly ReceivedSpan[], name: string): ReceivedSpan[] =>
  spans.filter((span) => span.name === name);
const sessionSpans = (session: string): ReceivedSpan[] => {
  const root = receiver
    .spans()
    .find(
      (span) =>
        span.name === 'invoke_agent' && span.attributes['gen_ai.conversation.id'] === session,
    );
  if (!root) throw new Error(`no invoke_agent span for ${session}`);
  return receiver.spans().filter((span) => span.traceId === root.traceId);
};

describe('OpenTelemetry GenAI export', () => {
  it('writes a streamed OpenAI run with parallel tool calls as invoke_agent, chat and execute_tool spans, attribute by attribute', async () => {
    const { proxy, openai } = await proxied(otlp(false, receiver.url));
    expect(await weatherAgent(openai, 'weather-run')).toBe('Paris is sunny, Tokyo rainy.');
    await proxy.close();
    const spans = sessionSpans('weather-run');
    const [root] = of(spans, 'invoke_agent');
    expect(root).toMatchObject({
      kind: 1,
      parentSpanId: undefined,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.provider.name': 'openai',
        'gen_ai.conversation.id': 'weather-run',
      },
    });
    expect(root?.resource['service.name']).toBe('calltape');
    const chats = of(spans, 'chat gpt-test');
    expect(chats).toHaveLength(2);
    for (const chat of chats)
      expect(chat).toMatchObject({ kind: 3, parentSpanId: root?.spanId, status: 0 });
    const [streamed, plain] = [...chats].sort((a, b) => a.startMs - b.startMs);
    expect(streamed?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
      'gen_ai.request.stream': true,
      'gen_ai.conversation.id': 'weather-run',
      'gen_ai.usage.input_tokens': 50,
      'gen_ai.usage.output_tokens': 20,
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'http.response.status_code': 200,
    });
    expect(typeof streamed?.attributes['gen_ai.response.time_to_first_chunk']).toBe('number');
    expect(plain?.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 80,
      'gen_ai.usage.output_tokens': 7,
      'gen_ai.response.finish_reasons': ['stop'],
    });
    expect(plain?.attributes['gen_ai.request.stream']).toBeUndefined();
    // Content is opt-in: none by default.
    for (const span of spans)
      for (const key of [
        'gen_ai.input.messages',
        'gen_ai.output.messages',
        'gen_ai.tool.definitions',
        'gen_ai.tool.call.arguments',
        'gen_ai.tool.call.result',
      ])
        expect(span.attributes[key]).toBeUndefined();
    const tools = of(spans, 'execute_tool get_weather').sort((a, b) =>
      String(a.attributes['gen_ai.tool.call.id']).localeCompare(
        String(b.attributes['gen_ai.tool.call.id']),
      ),
    );
    expect(tools.map((span) => span.attributes['gen_ai.tool.call.id'])).toEqual([
      'call_paris',
      'call_tokyo',
    ]);
    for (const tool of tools) {
      expect(tool).toMatchObject({
        kind: 1,
        parentSpanId: root?.spanId,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'get_weather',
          'gen_ai.tool.type': 'function',
          'gen_ai.tool.description': 'Weather in a city.',
        },
      });
      // The agent ran the tool between the two rounds.
      expect(tool.startMs).toBe(streamed?.endMs);
      expect(tool.endMs).toBe(plain?.startMs);
    }
  });

  it('exports content only when opted in, redacted, and never the API key', async () => {
    const { proxy, openai } = await proxied(otlp(true, receiver.url), {
      redact: {
        headers: [],
        bodyPatterns: [{ pattern: 'Tokyo', flags: 'g', replacement: '[REDACTED:city]' }],
        builtinPatterns: true,
      },
    });
    await weatherAgent(openai, 'weather-content');
    await proxy.close();
    const spans = sessionSpans('weather-content');
    const first = of(spans, 'chat gpt-test').sort((a, b) => a.startMs - b.startMs)[0];
    expect(JSON.parse(String(first?.attributes['gen_ai.input.messages']))).toEqual([
      {
        role: 'user',
        parts: [
          {
            type: 'text',
            content: 'Weather in Paris and Tokyo?'.replace('Tokyo', '[REDACTED:city]'),
          },
        ],
      },
    ]);
    expect(JSON.parse(String(first?.attributes['gen_ai.tool.definitions']))).toEqual([
      {
        type: 'function',
        name: 'get_weather',
        description: 'Weather in a city.',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ]);
    const paris = of(spans, 'execute_tool get_weather').find(
      (span) => span.attributes['gen_ai.tool.call.id'] === 'call_paris',
    );
    expect(paris?.attributes['gen_ai.tool.call.arguments']).toBe('{"city":"Paris"}');
    expect(paris?.attributes['gen_ai.tool.call.result']).toBe('{"sky":"sunny"}');
    const sent = receiver.requests.map((request) => request.body.toString('utf8')).join('\n');
    expect(sent).not.toContain(apiKey);
    expect(sent).not.toContain('Tokyo');
  });

  it('exports a replayed run as the recorded one was: the same chat and execute_tool spans, from the cassette', async () => {
    const recorder = await startTestProxy(upstream.url, { mode: 'record' });
    await weatherAgent(
      new OpenAI({ apiKey, baseURL: recorder.baseUrl, maxRetries: 0 }),
      'replayed',
    );
    await recorder.close();
    const served = upstream.received.length;
    const { proxy, openai } = await proxied(otlp(false, receiver.url), {
      mode: 'replay',
      cassette: recorder.config.cassette,
    });
    expect(await weatherAgent(openai, 'replayed')).toBe('Paris is sunny, Tokyo rainy.');
    await proxy.close();
    expect(upstream.received.length).toBe(served);
    const spans = sessionSpans('replayed');
    expect(
      of(spans, 'chat gpt-test')
        .map((span) => span.attributes['gen_ai.usage.input_tokens'])
        .sort(),
    ).toEqual([50, 80]);
    expect(
      of(spans, 'execute_tool get_weather')
        .map((span) => span.attributes['gen_ai.tool.call.id'])
        .sort(),
    ).toEqual(['call_paris', 'call_tokyo']);
  });

  it('writes an Anthropic call with the anthropic provider name and its own finish reason', async () => {
    const { proxy, anthropic } = await proxied(otlp(false, receiver.url));
    await anthropic.messages
      .stream(
        {
          model: 'claude-sonnet-4-5',
          max_tokens: 100,
          tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: {} } }],
          messages: [{ role: 'user', content: 'Weather?' }],
        },
        { headers: { 'x-calltape-session': 'claude-run' } },
      )
      .finalMessage();
    await proxy.close();
    const spans = sessionSpans('claude-run');
    expect(of(spans, 'invoke_agent')[0]?.attributes['gen_ai.provider.name']).toBe('anthropic');
    expect(of(spans, 'chat claude-sonnet-4-5')[0]?.attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-sonnet-4-5',
      'gen_ai.response.model': 'claude-sonnet-4-5',
      'gen_ai.response.finish_reasons': ['tool_use'],
      'gen_ai.usage.input_tokens': 31,
      'gen_ai.usage.output_tokens': 9,
      'calltape.wire': 'anthropic-messages',
    });
    // The result never came back: the call ends with the session, marked so.
    expect(of(spans, 'execute_tool get_weather')[0]?.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'toolu_paris',
      'calltape.tool.result_seen': false,
    });
  });

  it('records a failing shadow verdict as a gen_ai.evaluation.result event on the session', async () => {
    const bank = await startScriptedUpstream(bankModel);
    try {
      const proxy = await startTestProxy(
        bank.url,
        {
          mode: 'passthrough',
          shadow: {
            ...defaultConfig.shadow,
            policies: writePolicies(temporaryFolder(), bankPolicies()),
            database: `${temporaryFolder()}/shadow.sqlite`,
          },
        },
        { otlp: otlp(false, receiver.url) },
      );
      const client = new OpenAI({ apiKey, baseURL: proxy.baseUrl, maxRetries: 0 });
      await ask(client, 'transfer big please', { session: 'shadow-run' });
      await expect
        .poll(
          async () =>
            metricValue(
              await (await fetch(`${proxy.url}/metrics`)).text(),
              'calltape_sessions_scored_total',
              { verdict: 'fail' },
            ),
          { timeout: 10_000 },
        )
        .toBe(1);
      await proxy.close();
      const [root] = of(sessionSpans('shadow-run'), 'invoke_agent');
      expect(root?.status).toBe(2);
      const limits = root?.events.find(
        (event) => event.attributes['gen_ai.evaluation.name'] === 'transfer-limits',
      );
      expect(limits).toMatchObject({
        name: 'gen_ai.evaluation.result',
        attributes: {
          'gen_ai.evaluation.score.label': 'fail',
          'gen_ai.tool.name': 'transfer_money',
        },
      });
      expect(String(limits?.attributes['gen_ai.evaluation.explanation'])).toMatch(/amount/);
      const schema = root?.events.find(
        (event) => event.attributes['gen_ai.evaluation.name'] === 'valid-arguments',
      );
      expect(schema?.attributes['gen_ai.evaluation.score.label']).toBe('pass');
    } finally {
      await bank.close();
    }
  });

  it.each(['reject', 'hang'] as const)(
    'changes no proxy response when the collector does %s, and counts what it lost',
    async (behaviour) => {
      const collector = await startOtlpReceiver();
      collector.setBehaviour(behaviour);
      try {
        const { proxy, openai } = await proxied(otlp(false, collector.url), {
          timeouts: { ...defaultConfig.timeouts, shutdownGraceMs: 300 },
        });
        expect(await weatherAgent(openai, `down-${behaviour}`)).toBe(
          'Paris is sunny, Tokyo rainy.',
        );
        if (behaviour === 'reject')
          await expect
            .poll(
              async () =>
                metricValue(
                  await (await fetch(`${proxy.url}/metrics`)).text(),
                  'calltape_otlp_dropped_total',
                  { what: 'span' },
                ),
              { timeout: 10_000 },
            )
            .toBeGreaterThan(0);
        await proxy.close();
        expect(collector.requests.length).toBeGreaterThan(0);
      } finally {
        await collector.close();
      }
    },
  );

  it('sends OTLP protobuf by default', async () => {
    const collector = await startOtlpReceiver();
    try {
      const { proxy } = await proxied({
        url: `${collector.url}/v1/traces`,
        protocol: 'http/protobuf',
        captureContent: false,
      });
      await ask(new OpenAI({ apiKey, baseURL: proxy.baseUrl, maxRetries: 0 }), 'hello', {
        session: 'proto',
      });
      await proxy.close();
      expect(
        collector.requests.map((request) => [request.path, request.contentType]),
      ).toContainEqual(['/v1/traces', 'application/x-protobuf']);
      expect(
        collector.requests.every(
          (request) => request.body.length > 0 && !request.body.includes(apiKey),
        ),
      ).toBe(true);
      // Decoded by the OTel protobuf root: the same spans the JSON encoding carries.
      expect(
        collector
          .spans()
          .filter((span) => span.attributes['gen_ai.conversation.id'] === 'proto')
          .map((span) => span.name)
          .sort(),
      ).toEqual(['chat gpt-test', 'invoke_agent']);
    } finally {
      await collector.close();
    }
  });
});
