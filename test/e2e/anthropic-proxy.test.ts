import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import type { Config } from '../../src/config/config.js';
import { scoreCall } from '../../src/scoring/score-call.js';
import { buildTrajectories } from '../../src/trace/build-trajectories.js';
import {
  anthropicEvents,
  anthropicMessage,
  type ScriptedMessage,
} from '../support/anthropic-messages-events.js';
import { seededRandom } from '../support/random.js';
import {
  startScriptedUpstream,
  type ReceivedRequest,
  type ScriptedResponse,
  type ScriptedUpstream,
} from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

type TestProxy = Awaited<ReturnType<typeof startTestProxy>>;
const running: (TestProxy | ScriptedUpstream)[] = [];
afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
});

const apiKey = 'sk-ant-test-key-0123456789abcdef';
interface WireMessage {
  role: string;
  content:
    | string
    | {
        type: string;
        text?: string;
        id?: string;
        name?: string;
        tool_use_id?: string;
        content?: string;
        is_error?: boolean;
      }[];
}

/** Claude, scripted: what it answers depends on the last user text; tool results are reported back verbatim. */
function claude(request: ReceivedRequest, callNumber: number): ScriptedResponse {
  const body = JSON.parse(request.body) as { stream?: boolean; messages: WireMessage[] };
  const last = body.messages.at(-1);
  const blocks =
    typeof last?.content === 'string'
      ? [{ type: 'text', text: last.content }]
      : (last?.content ?? []);
  const results = blocks.filter((block) => block.type === 'tool_result');
  const text =
    [...body.messages]
      .reverse()
      .flatMap((message) =>
        typeof message.content === 'string'
          ? [message.content]
          : message.content
              .filter((block) => block.type === 'text')
              .map((block) => block.text ?? ''),
      )
      .find((value) => value !== '') ?? '';
  let turn: ScriptedMessage;
  if (results.length > 0)
    turn = {
      text: `Results: ${results.map((block) => `${block.tool_use_id}=${block.content}${block.is_error ? ' (error)' : ''}`).join('; ')}`,
    };
  else if (/truncated/.test(text))
    turn = {
      toolUses: [{ id: 'toolu_cut', name: 'get_weather', input: '{"city":"Par' }],
      stopReason: null,
    };
  else if (/long/.test(text))
    turn = {
      toolUses: [
        { id: 'toolu_long', name: 'get_weather', input: '{"city":"Paris","notes":"a very long' },
      ],
      stopReason: 'max_tokens',
    };
  else if (/and email/.test(text))
    turn = {
      text: 'Checking both.',
      toolUses: [
        { id: 'toolu_balance', name: 'get_balance', input: '{"account_type":"savings"}' },
        { id: 'toolu_mail', name: 'send_email', input: '{"to":"ann@example.com"}' },
      ],
    };
  else if (/balance/.test(text))
    turn = {
      text: 'Let me check.',
      toolUses: [{ id: 'toolu_balance', name: 'get_balance', input: '{"account_type":"savings"}' }],
    };
  else if (/weather/i.test(text))
    turn = {
      toolUses: [
        { id: 'toolu_paris', name: 'get_weather', input: '{"city":"Paris","unit":"celsius"}' },
        { id: 'toolu_tokyo', name: 'get_weather', input: '{"city":"Tokyo","unit":"celsius"}' },
      ],
    };
  else turn = { text: `You said: ${text}` };
  if (!body.stream) return { kind: 'json', body: anthropicMessage(turn) };
  return {
    kind: 'sse',
    body: anthropicEvents(turn, seededRandom(callNumber + 7)),
    split: { seed: callNumber, maxPiece: 9 },
    headers: { 'content-type': 'text/event-stream; charset=utf-8' },
  };
}

const tools: Anthropic.Tool[] = ['get_weather', 'get_balance', 'send_email'].map((name) => ({
  name,
  description: name,
  input_schema: { type: 'object', properties: {} },
}));

async function setup(
  overrides: Partial<Config> = {},
  upstreamUrl?: string,
): Promise<{ client: Anthropic; proxy: TestProxy; upstream: ScriptedUpstream | undefined }> {
  const upstream = upstreamUrl ? undefined : await startScriptedUpstream(claude);
  if (upstream) running.push(upstream);
  const target = upstreamUrl ?? (upstream as ScriptedUpstream).url;
  const proxy = await startTestProxy('http://127.0.0.1:1', {
    anthropicUpstream: target,
    ...overrides,
  });
  running.push(proxy);
  return { client: new Anthropic({ apiKey, baseURL: proxy.url, maxRetries: 0 }), proxy, upstream };
}

const ask = (
  client: Anthropic,
  content: string,
  stream: boolean,
  messages: Anthropic.MessageParam[] = [],
): Promise<Anthropic.Message> => {
  const body = {
    model: 'claude-sonnet-4-5',
    max_tokens: 512,
    tools,
    messages: [...messages, { role: 'user' as const, content }],
  };
  return stream ? client.messages.stream(body).finalMessage() : client.messages.create(body);
};

describe.each([false, true])('Anthropic Messages through the proxy (stream: %s)', (stream) => {
  it('captures parallel tool_use calls exactly, never stores the x-api-key, and replays offline', async () => {
    const cassette = join(temporaryFolder(), 'claude.sqlite');
    const { client, proxy, upstream } = await setup({ cassette, mode: 'record' });
    const answer = await ask(client, 'What is the weather in Paris and Tokyo?', stream);
    expect(
      answer.content.map((block) =>
        block.type === 'tool_use' ? [block.id, block.input] : block.type,
      ),
    ).toEqual([
      ['toolu_paris', { city: 'Paris', unit: 'celsius' }],
      ['toolu_tokyo', { city: 'Tokyo', unit: 'celsius' }],
    ]);
    expect(upstream?.received[0]?.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The SDK sends its key as a bearer token (older ones as x-api-key): forwarded, never stored.
    expect(
      upstream?.received[0]?.headers['authorization'] ??
        upstream?.received[0]?.headers['x-api-key'],
    ).toContain(apiKey);
    // Older SDKs and curl send x-api-key: forwarded too, never stored either.
    const raw = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': apiKey,
        'anthropic-version': '2023-06-01',
      },
      body: JSON.stringify({
        model: 'claude-sonnet-4-5',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(raw.status).toBe(200);
    expect(upstream?.received[1]?.headers['x-api-key']).toBe(apiKey);
    await proxy.close();

    const store = new SqliteStore(cassette, { readonly: true });
    const [interaction] = store.interactions();
    store.close();
    expect(interaction).toMatchObject({
      provider: 'anthropic-messages',
      status: 'complete',
      response: {
        output: { finishReason: { unified: 'tool-calls', raw: 'tool_use' } },
        usage: { inputTokens: 25, outputTokens: 12 },
      },
    });
    expect(
      interaction?.response?.output.toolCalls.map((call) => [
        call.id,
        call.name,
        call.argumentsRaw,
        call.complete,
      ]),
    ).toEqual([
      ['toolu_paris', 'get_weather', '{"city":"Paris","unit":"celsius"}', true],
      ['toolu_tokyo', 'get_weather', '{"city":"Tokyo","unit":"celsius"}', true],
    ]);
    const db = new Database(cassette, { readonly: true });
    const rows = db
      .prepare('SELECT request_headers, request_body, response_body FROM interactions')
      .all() as Record<string, unknown>[];
    db.close();
    expect(JSON.stringify(rows)).not.toContain(apiKey);

    // Scored like any wire: the trace is provider-neutral.
    const [run] = buildTrajectories([interaction as NonNullable<typeof interaction>]);
    expect(
      scoreCall(
        {
          expected_calls: [
            {
              expected_tool: 'get_weather',
              arguments: { city: 'tokyo' },
              rules: {
                city: { matching_strategy: 'ignore_case' },
                unit: { matching_strategy: 'ignore' },
              },
            },
            { expected_tool: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
          ],
        },
        run?.calls.map((call) => ({ name: call.name, arguments: call.argumentsRaw })) ?? [],
      ).is_correct,
    ).toBe(true);

    const replayer = await setup({ cassette, mode: 'replay' }, 'http://127.0.0.1:1');
    expect(await ask(replayer.client, 'What is the weather in Paris and Tokyo?', stream)).toEqual(
      answer,
    );
  });

  it("answers a mocked tool in Anthropic shape, hides it, and merges its result into the agent's result message", async () => {
    const folder = temporaryFolder();
    writeFileSync(
      join(folder, 'bank.yaml'),
      'mocks:\n  - tool: get_balance\n    result: { balance: 120 }\n',
    );
    const { client, upstream } = await setup({
      mocks: {
        files: [join(folder, 'bank.yaml')],
        active: null,
        mode: 'intercept',
        maxHiddenRounds: 4,
        strictTools: false,
        allowTools: [],
      },
    });
    const hidden = await ask(client, 'What is my balance?', stream);
    expect(
      hidden.content.map((block) => (block.type === 'text' ? block.text : block.type)),
    ).toEqual(['Results: toolu_balance={"balance":120}']);
    const mixed = await ask(client, 'Check my balance and email Ann', stream);
    expect(
      mixed.content
        .filter((block) => block.type === 'tool_use')
        .map((block) => (block as Anthropic.ToolUseBlock).name),
    ).toEqual(['send_email']);
    const history: Anthropic.MessageParam[] = [
      { role: 'user', content: 'Check my balance and email Ann' },
      { role: 'assistant', content: mixed.content },
    ];
    const answered = await (stream
      ? client.messages
          .stream({
            model: 'claude-sonnet-4-5',
            max_tokens: 512,
            tools,
            messages: [
              ...history,
              {
                role: 'user',
                content: [{ type: 'tool_result', tool_use_id: 'toolu_mail', content: 'sent' }],
              },
            ],
          })
          .finalMessage()
      : client.messages.create({
          model: 'claude-sonnet-4-5',
          max_tokens: 512,
          tools,
          messages: [
            ...history,
            {
              role: 'user',
              content: [{ type: 'tool_result', tool_use_id: 'toolu_mail', content: 'sent' }],
            },
          ],
        }));
    expect(answered.content[0]).toMatchObject({
      type: 'text',
      text: 'Results: toolu_balance={"balance":120}; toolu_mail=sent',
    });
    const sent = JSON.parse(upstream?.received.at(-1)?.body ?? '{}') as { messages: WireMessage[] };
    expect(sent.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(
      (sent.messages[2]?.content as { tool_use_id?: string }[]).map((block) => block.tool_use_id),
    ).toEqual(['toolu_balance', 'toolu_mail']);
  });
});

describe.each([false, true])(
  'Anthropic Messages: mocks with a system prompt (stream: %s)',
  (stream) => {
    // Regression (issue 16): with a top-level `system`, the agent's next request went upstream without the hidden round spliced in.
    it('issue-16: splices the hidden mocked round back into the next request when the agent has a system prompt', async () => {
      const folder = temporaryFolder();
      writeFileSync(
        join(folder, 'bank.yaml'),
        'mocks:\n  - tool: get_balance\n    result: { balance: 120 }\n',
      );
      const { client, upstream } = await setup({
        mocks: {
          files: [join(folder, 'bank.yaml')],
          active: null,
          mode: 'intercept',
          maxHiddenRounds: 4,
          strictTools: false,
          allowTools: [],
        },
      });
      const body = (
        messages: Anthropic.MessageParam[],
      ): Anthropic.MessageCreateParamsNonStreaming => ({
        model: 'claude-sonnet-4-5',
        max_tokens: 512,
        system: 'You are a terse bank assistant.',
        tools,
        messages,
      });
      const send = (messages: Anthropic.MessageParam[]): Promise<Anthropic.Message> =>
        stream
          ? client.messages.stream(body(messages)).finalMessage()
          : client.messages.create(body(messages));
      const history: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is my balance?' }];
      const answer = await send(history);
      expect(answer.content).toMatchObject([
        { type: 'text', text: 'Results: toolu_balance={"balance":120}' },
      ]);
      history.push(
        { role: 'assistant', content: answer.content },
        { role: 'user', content: 'Thanks' },
      );
      expect((await send(history)).content).toMatchObject([
        { type: 'text', text: 'You said: Thanks' },
      ]);
      const sent = JSON.parse(upstream?.received.at(-1)?.body ?? '{}') as {
        system?: string;
        messages: WireMessage[];
      };
      expect(sent.system).toBe('You are a terse bank assistant.');
      expect(
        sent.messages.map((message) => [
          message.role,
          typeof message.content === 'string'
            ? 'text'
            : message.content.map((block) => block.type).join('+'),
        ]),
      ).toEqual([
        ['user', 'text'],
        ['assistant', 'text+tool_use'],
        ['user', 'tool_result'],
        ['assistant', 'text'],
        ['user', 'text'],
      ]);
    });
  },
);

describe('Anthropic Messages: the SDK tool runner', () => {
  it("runs the SDK's toolRunner loop through the proxy; its turns chain into one session with the results", async () => {
    const cassette = join(temporaryFolder(), 'runner.sqlite');
    const { client, proxy } = await setup({ cassette, mode: 'record' });
    const weather = betaTool({
      name: 'get_weather',
      description: 'weather',
      inputSchema: {
        type: 'object',
        properties: { city: { type: 'string' }, unit: { type: 'string' } },
        required: ['city'],
      },
      run: (args) => `${args.city}: mild`,
    });
    const final = await client.beta.messages.toolRunner({
      model: 'claude-sonnet-4-5',
      max_tokens: 512,
      messages: [{ role: 'user', content: 'What is the weather in Paris and Tokyo?' }],
      tools: [weather],
    });
    expect(final.content[0]).toMatchObject({
      type: 'text',
      text: 'Results: toolu_paris=Paris: mild; toolu_tokyo=Tokyo: mild',
    });
    await proxy.close();
    const store = new SqliteStore(cassette, { readonly: true });
    const interactions = store.interactions();
    store.close();
    expect(new Set(interactions.map((interaction) => interaction.sessionId)).size).toBe(1);
    const [run] = buildTrajectories(interactions);
    expect(run?.calls.map((call) => [call.name, call.argumentsRaw, call.result?.text])).toEqual([
      ['get_weather', '{"city":"Paris","unit":"celsius"}', 'Paris: mild'],
      ['get_weather', '{"city":"Tokyo","unit":"celsius"}', 'Tokyo: mild'],
    ]);
  });
});

describe('Anthropic Messages: mocks in a server-side thread', () => {
  it('continues a thread by message id in hidden rounds: the tool runner never runs the mocked tool', async () => {
    const folder = temporaryFolder();
    writeFileSync(
      join(folder, 'weather.yaml'),
      'mocks:\n  - tool: get_weather\n    result: "{{args.city}}: sunny (mock)"\n',
    );
    const { client, upstream } = await setup({
      mocks: {
        files: [join(folder, 'weather.yaml')],
        active: null,
        mode: 'intercept',
        maxHiddenRounds: 4,
        strictTools: false,
        allowTools: [],
      },
    });
    let ran = 0;
    const weather = betaTool({
      name: 'get_weather',
      description: 'weather',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      run: () => String(++ran),
    });
    const final = await client.beta.messages.toolRunner({
      model: 'claude-sonnet-4-5',
      max_tokens: 512,
      messages: [{ role: 'user', content: 'What is the weather in Paris and Tokyo?' }],
      tools: [weather],
    });
    expect(final.content[0]).toMatchObject({
      type: 'text',
      text: 'Results: toolu_paris=Paris: sunny (mock); toolu_tokyo=Tokyo: sunny (mock)',
    });
    expect(ran).toBe(0);
    const hidden = JSON.parse(upstream?.received[1]?.body ?? '{}') as {
      thread?: { type: string; previous_message_id: string };
      messages: WireMessage[];
    };
    expect(hidden.thread).toEqual({ type: 'continue', previous_message_id: 'msg_scripted' });
    expect(hidden.messages).toHaveLength(1);
  });
});

describe('Anthropic Messages: failures', () => {
  it('records a stream cut before message_stop as truncated, and max_tokens mid-JSON as an incomplete call', async () => {
    const cassette = join(temporaryFolder(), 'cut.sqlite');
    const { client, proxy } = await setup({ cassette, mode: 'record' });
    await ask(client, 'weather truncated', true).catch(() => undefined);
    await ask(client, 'weather long', true).catch(() => undefined);
    await proxy.close();
    const store = new SqliteStore(cassette, { readonly: true });
    const [cut, long] = store.interactions();
    store.close();
    expect(cut).toMatchObject({
      status: 'truncated',
      response: {
        output: { toolCalls: [{ id: 'toolu_cut', argumentsRaw: '{"city":"Par', complete: false }] },
      },
    });
    expect(long).toMatchObject({
      status: 'complete',
      response: {
        output: {
          finishReason: { unified: 'length', raw: 'max_tokens' },
          toolCalls: [{ id: 'toolu_long', complete: false, arguments: { ok: false } }],
        },
      },
    });
    expect(
      scoreCall({ expected_tool: 'get_weather', arguments: { city: 'Paris' } }, [
        { name: 'get_weather', arguments: long?.response?.output.toolCalls[0]?.argumentsRaw ?? '' },
      ]).reasons,
    ).toEqual(['invalid_json']);
  });

  it("answers calltape's own errors in Anthropic's error shape, so the SDK raises its own error classes", async () => {
    const cassette = join(temporaryFolder(), 'empty.sqlite');
    const recorder = await setup({ cassette, mode: 'record' });
    await ask(recorder.client, 'hello', false);
    await recorder.proxy.close();
    const { client, proxy } = await setup({ cassette, mode: 'replay' }, 'http://127.0.0.1:1');
    const missed = await ask(client, 'something never recorded', false).catch(
      (error: unknown) => error,
    );
    expect(missed).toBeInstanceOf(Anthropic.NotFoundError);
    expect((missed as Error).message).toContain('has no recording for POST /v1/messages');
    const bad = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': apiKey,
        'anthropic-version': '2023-06-01',
      },
      body: '{"model":',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('not valid JSON') },
    });
    // anthropic-version is part of a recording's identity: another version is another request.
    const otherVersion = await new Anthropic({
      apiKey,
      baseURL: proxy.url,
      maxRetries: 0,
      defaultHeaders: { 'anthropic-version': '2099-01-01' },
    }).messages
      .create({
        model: 'claude-sonnet-4-5',
        max_tokens: 512,
        tools,
        messages: [{ role: 'user', content: 'hello' }],
      })
      .catch((error: unknown) => error);
    expect(otherVersion).toBeInstanceOf(Anthropic.NotFoundError);
    expect((otherVersion as Error).message).toContain('anthropic-version');
  });
});
