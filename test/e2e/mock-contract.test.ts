import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { ResponseStreamParams } from 'openai/lib/responses/ResponseStream';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { anthropicEvents, anthropicMessage } from '../support/anthropic-messages-events.js';
import { chatCompletion, chatCompletionChunks, encodeSse } from '../support/openai-chat-chunks.js';
import { responsesEvents, responsesObject } from '../support/openai-responses-events.js';
import { seededRandom } from '../support/random.js';
import { startScriptedUpstream, type ScriptedResponse } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';
import { startWsUpstream } from '../support/ws-upstream.js';

/**
 * The mock-tools contract: one conversation, the same on every wire and transport. A request is
 * read into wire-neutral entries (`user:…`, `assistant:…`, `call:<id>`, `result:<id>=<content>`),
 * the scripted model answers from them, and what went upstream is compared as entries too.
 */
type Entry = string;
interface Turn {
  readonly text?: string;
  readonly calls?: readonly { readonly id: string; readonly name: string; readonly args: string }[];
}

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The model: reports trailing tool results, calls one or two tools when asked, else echoes. */
function decide(entries: readonly Entry[]): Turn {
  const trailing: string[] = [];
  for (let index = entries.length - 1; index >= 0 && entries[index]?.startsWith('result:'); index--)
    trailing.unshift((entries[index] as string).slice('result:'.length));
  if (trailing.length > 0) return { text: `Results: ${trailing.join('; ')}` };
  const user =
    [...entries]
      .reverse()
      .find((entry) => entry.startsWith('user:'))
      ?.slice('user:'.length) ?? '';
  if (/balance and weather/.test(user))
    return {
      calls: [
        { id: 'call_balance', name: 'get_balance', args: '{}' },
        { id: 'call_weather', name: 'get_weather', args: '{"city":"Oslo"}' },
      ],
    };
  if (/balance/.test(user))
    return { calls: [{ id: 'call_balance', name: 'get_balance', args: '{}' }] };
  return { text: `You said: ${user}` };
}

type Json = Record<string, unknown>;
const text = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : Array.isArray(value)
      ? (value as Json[]).map((part) => String(part['text'] ?? '')).join('')
      : '';

const readChat = (body: Json): Entry[] =>
  (body['messages'] as Json[]).flatMap((message): Entry[] => {
    if (message['role'] === 'tool')
      return [`result:${String(message['tool_call_id'])}=${text(message['content'])}`];
    const calls = ((message['tool_calls'] as Json[] | undefined) ?? []).map(
      (call) => `call:${String(call['id'])}`,
    );
    const said = text(message['content']);
    return [...(said !== '' ? [`${String(message['role'])}:${said}`] : []), ...calls];
  });

const readAnthropic = (body: Json): Entry[] => [
  ...(body['system'] !== undefined ? [`system:${text(body['system'])}`] : []),
  ...(body['messages'] as Json[]).flatMap((message): Entry[] => {
    const blocks =
      typeof message['content'] === 'string'
        ? [{ type: 'text', text: message['content'] }]
        : (message['content'] as Json[]);
    return blocks.map((block) =>
      block['type'] === 'tool_use'
        ? `call:${String(block['id'])}`
        : block['type'] === 'tool_result'
          ? `result:${String(block['tool_use_id'])}=${text(block['content'])}`
          : `${String(message['role'])}:${String(block['text'])}`,
    );
  }),
];

const readResponses = (body: Json): Entry[] => [
  ...(body['instructions'] !== undefined ? [`system:${String(body['instructions'])}`] : []),
  ...(typeof body['input'] === 'string'
    ? [{ role: 'user', content: body['input'] }]
    : (body['input'] as Json[])
  ).map((item) =>
    item['type'] === 'function_call'
      ? `call:${String(item['call_id'])}`
      : item['type'] === 'function_call_output'
        ? `result:${String(item['call_id'])}=${String(item['output'])}`
        : `${String(item['role'])}:${text(item['content'])}`,
  ),
];

/** A model turn in each wire's answer shape, whole or streamed. */
function answerChat(turn: Turn, stream: boolean, seed: number): ScriptedResponse {
  const scripted = {
    ...(turn.text !== undefined ? { text: turn.text } : {}),
    toolCalls: (turn.calls ?? []).map((call) => ({
      id: call.id,
      name: call.name,
      arguments: call.args,
    })),
  };
  return stream
    ? {
        kind: 'sse',
        body: encodeSse(
          chatCompletionChunks(scripted, seededRandom(seed), { includeUsage: false }),
        ),
      }
    : { kind: 'json', body: chatCompletion(scripted) };
}
function answerAnthropic(turn: Turn, stream: boolean, seed: number): ScriptedResponse {
  const scripted = {
    id: `msg_${seed}`,
    ...(turn.text !== undefined ? { text: turn.text } : {}),
    toolUses: (turn.calls ?? []).map((call) => ({
      id: call.id,
      name: call.name,
      input: call.args,
    })),
  };
  return stream
    ? {
        kind: 'sse',
        body: anthropicEvents(scripted, seededRandom(seed)),
        headers: { 'content-type': 'text/event-stream' },
      }
    : { kind: 'json', body: anthropicMessage(scripted) };
}
const responsesTurn = (turn: Turn, seed: number): Parameters<typeof responsesObject>[0] => ({
  id: `resp_${seed}`,
  ...(turn.text !== undefined ? { text: turn.text } : {}),
  calls: (turn.calls ?? []).map((call) => ({
    callId: call.id,
    name: call.name,
    arguments: call.args,
  })),
});
function answerResponses(turn: Turn, stream: boolean, seed: number): ScriptedResponse {
  return stream
    ? {
        kind: 'sse',
        body: responsesEvents(responsesTurn(turn, seed), seededRandom(seed)),
        headers: { 'content-type': 'text/event-stream' },
      }
    : { kind: 'json', body: responsesObject(responsesTurn(turn, seed)) };
}

/** An agent holding its own history: `say` sends a user turn and returns the text of the answer it got. */
interface Agent {
  say(words: string): Promise<string>;
  close(): void;
}
interface AgentOptions {
  readonly origin: string;
  readonly system: string | undefined;
  readonly stream: boolean;
}

const key = 'sk-test-key-0123456789abcdef';
const schema = { type: 'object' as const, properties: {} };

function chatAgent({ origin, system, stream }: AgentOptions): Agent {
  const client = new OpenAI({ apiKey: key, baseURL: `${origin}/v1`, maxRetries: 0 });
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = ['get_balance', 'get_weather'].map(
    (name) => ({ type: 'function', function: { name, parameters: schema } }),
  );
  const history: OpenAI.Chat.Completions.ChatCompletionMessageParam[] =
    system !== undefined ? [{ role: 'system', content: system }] : [];
  return {
    async say(words) {
      history.push({ role: 'user', content: words });
      const completion = stream
        ? await client.chat.completions
            .stream({ model: 'm', messages: history, tools })
            .finalChatCompletion()
        : await client.chat.completions.create({ model: 'm', messages: history, tools });
      const answer = completion.choices[0]?.message.content ?? '';
      history.push({ role: 'assistant', content: answer });
      return answer;
    },
    close: () => undefined,
  };
}

function anthropicAgent({ origin, system, stream }: AgentOptions): Agent {
  const client = new Anthropic({ apiKey: key, baseURL: origin, maxRetries: 0 });
  const tools: Anthropic.Tool[] = ['get_balance', 'get_weather'].map((name) => ({
    name,
    input_schema: schema,
  }));
  const history: Anthropic.MessageParam[] = [];
  return {
    async say(words) {
      history.push({ role: 'user', content: words });
      const body = {
        model: 'claude-sonnet-4-5',
        max_tokens: 256,
        tools,
        messages: history,
        ...(system !== undefined ? { system } : {}),
      };
      const message = stream
        ? await client.messages.stream(body).finalMessage()
        : await client.messages.create(body);
      const answer = message.content
        .map((block) => (block.type === 'text' ? block.text : ''))
        .join('');
      history.push({ role: 'assistant', content: answer });
      return answer;
    },
    close: () => undefined,
  };
}

const responsesTools: OpenAI.Responses.FunctionTool[] = ['get_balance', 'get_weather'].map(
  (name) => ({ type: 'function', name, parameters: schema, strict: false }),
);

function responsesAgent({ origin, system, stream }: AgentOptions): Agent {
  const client = new OpenAI({ apiKey: key, baseURL: `${origin}/v1`, maxRetries: 0 });
  const history: OpenAI.Responses.ResponseInputItem[] = [];
  return {
    async say(words) {
      history.push({ role: 'user', content: words });
      const body = {
        model: 'm',
        input: history,
        tools: responsesTools,
        store: false,
        ...(system !== undefined ? { instructions: system } : {}),
      };
      const response = stream
        ? await client.responses.stream(body as ResponseStreamParams).finalResponse()
        : await client.responses.create(body);
      history.push({ role: 'assistant', content: response.output_text });
      return response.output_text;
    },
    close: () => undefined,
  };
}

function websocketAgent({ origin, system }: AgentOptions): Agent {
  const ws = new ResponsesWS(new OpenAI({ apiKey: key, baseURL: `${origin}/v1`, maxRetries: 0 }));
  const history: OpenAI.Responses.ResponseInputItem[] = [];
  return {
    async say(words) {
      history.push({ role: 'user', content: words });
      let failed: (error: Error) => void = () => undefined;
      let completed: (event: OpenAI.Responses.ResponseCompletedEvent) => void = () => undefined;
      const done = new Promise<string>((resolve, reject) => {
        failed = reject;
        completed = (event) =>
          resolve(
            event.response.output
              .map((item) =>
                item.type === 'message'
                  ? item.content
                      .map((part) => (part.type === 'output_text' ? part.text : ''))
                      .join('')
                  : '',
              )
              .join(''),
          );
      });
      ws.on('error', failed);
      ws.on('response.completed', completed);
      ws.send({
        type: 'response.create',
        model: 'm',
        input: [...history],
        tools: responsesTools,
        store: false,
        ...(system !== undefined ? { instructions: system } : {}),
      } as never);
      const answer = await done.finally(() => {
        ws.off('error', failed);
        ws.off('response.completed', completed);
      });
      history.push({ role: 'assistant', content: answer });
      return answer;
    },
    close: () => ws.close(),
  };
}

interface Transport {
  readonly name: string;
  readonly streams: readonly boolean[];
  readonly read: (body: Json) => Entry[];
  /** Starts the scripted upstream; `sent` lists the request bodies it got, in order. */
  start(stream: boolean): Promise<{ readonly url: string; sent(): Json[]; close(): Promise<void> }>;
  agent(options: AgentOptions): Agent;
}

function http(
  name: string,
  read: Transport['read'],
  answer: (turn: Turn, stream: boolean, seed: number) => ScriptedResponse,
  agent: Transport['agent'],
): Transport {
  return {
    name,
    streams: [false, true],
    read,
    async start(stream) {
      const upstream = await startScriptedUpstream((request, call) =>
        answer(decide(read(JSON.parse(request.body) as Json)), stream, call),
      );
      return {
        url: upstream.url,
        sent: () => upstream.received.map((request) => JSON.parse(request.body) as Json),
        close: () => upstream.close(),
      };
    },
    agent,
  };
}

const transports: readonly Transport[] = [
  http('openai-chat', readChat, answerChat, chatAgent),
  http('anthropic-messages', readAnthropic, answerAnthropic, anthropicAgent),
  http('openai-responses', readResponses, answerResponses, responsesAgent),
  {
    name: 'openai-responses over WebSocket',
    streams: [true],
    read: readResponses,
    async start() {
      let call = 0;
      const upstream = await startWsUpstream((message) => {
        const events = responsesEvents(
          responsesTurn(decide(readResponses(JSON.parse(message) as Json)), call),
          seededRandom(call++),
        );
        return [...events.matchAll(/^data: (.*)$/gm)].map((match) => match[1] as string);
      });
      return {
        url: upstream.url,
        sent: () =>
          upstream.received.flatMap((connection) =>
            connection.messages.map((message) => JSON.parse(message) as Json),
          ),
        close: () => upstream.close(),
      };
    },
    agent: websocketAgent,
  },
];

const mocksFile =
  'mocks:\n  - tool: get_balance\n    result: { balance: 120 }\n  - tool: get_weather\n    result: "sunny in {{args.city}}"\n';
const balance = 'result:call_balance={"balance":120}';
const cases = transports.flatMap((transport) =>
  transport.streams.flatMap((stream) =>
    [undefined, 'You are a terse bank assistant.'].map(
      (system) => [transport.name, stream, system ?? 'none', transport, system] as const,
    ),
  ),
);

describe.each(cases)(
  'mock tools contract: %s (stream: %s, system prompt: %s)',
  (_name, stream, _label, transport, system) => {
    it('hides single and parallel mocked calls, splices them into the next request, and replays the whole run offline', async () => {
      const upstream = await transport.start(stream);
      cleanups.push(() => upstream.close());
      const folder = temporaryFolder();
      writeFileSync(join(folder, 'mocks.yaml'), mocksFile);
      const settings: Partial<Config> = {
        anthropicUpstream: upstream.url,
        cassette: join(folder, 'run.sqlite'),
        mocks: {
          files: [join(folder, 'mocks.yaml')],
          active: null,
          mode: 'intercept',
          maxHiddenRounds: 4,
          strictTools: false,
          allowTools: [],
        },
      };
      const conversation = async (origin: string): Promise<string[]> => {
        const single = transport.agent({ origin, system, stream });
        const parallel = transport.agent({ origin, system, stream });
        try {
          return [
            await single.say('What is my balance?'),
            await single.say('Thanks'),
            await parallel.say('Check my balance and weather'),
          ];
        } finally {
          single.close();
          parallel.close();
        }
      };

      const proxy = await startTestProxy(upstream.url, { ...settings, mode: 'record' });
      cleanups.push(() => proxy.close());
      const answers = await conversation(proxy.url);
      expect(answers).toEqual([
        'Results: call_balance={"balance":120}',
        'You said: Thanks',
        'Results: call_balance={"balance":120}; call_weather=sunny in Oslo',
      ]);

      const preamble = system !== undefined ? [`system:${system}`] : [];
      const sent = upstream.sent().map(transport.read);
      expect(sent).toEqual([
        [...preamble, 'user:What is my balance?'],
        [...preamble, 'user:What is my balance?', 'call:call_balance', balance],
        // The agent never saw the mocked call; the model sees it again, in its place.
        [
          ...preamble,
          'user:What is my balance?',
          'call:call_balance',
          balance,
          `assistant:${answers[0] ?? ''}`,
          'user:Thanks',
        ],
        [...preamble, 'user:Check my balance and weather'],
        [
          ...preamble,
          'user:Check my balance and weather',
          'call:call_balance',
          'call:call_weather',
          balance,
          'result:call_weather=sunny in Oslo',
        ],
      ]);
      await proxy.close();

      const replayer = await startTestProxy('http://127.0.0.1:1', {
        ...settings,
        anthropicUpstream: 'http://127.0.0.1:1',
        mode: 'replay',
      });
      cleanups.push(() => replayer.close());
      expect(await conversation(replayer.url)).toEqual(answers);
      expect(replayer.stats).toMatchObject({ hits: 5, misses: 0 });
    });
  },
);
