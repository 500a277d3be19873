import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import type { Config } from '../../src/config/config.js';
import { buildTrajectories } from '../../src/trace/build-trajectories.js';
import {
  chatCompletion,
  chatCompletionChunks,
  encodeSse,
  type ScriptedTurn,
} from '../support/openai-chat-chunks.js';
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

interface WireMessage {
  role: string;
  content: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** A bank assistant: what it does depends on the user's words; after tool results it reports them verbatim. */
function bankModel(request: ReceivedRequest, callNumber: number): ScriptedResponse {
  const body = JSON.parse(request.body) as { stream?: boolean; messages: WireMessage[] };
  const messages = body.messages;
  const user = [...messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  const trailingResults: string[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === 'tool'; i--)
    trailingResults.unshift(messages[i]?.content ?? '');
  let turn: ScriptedTurn;
  if (/forever/.test(user))
    turn = {
      toolCalls: [
        { id: `call_loop_${callNumber}`, name: 'get_balance', arguments: '{"account_id":"ACC-1"}' },
      ],
    };
  else if (
    trailingResults.length > 0 &&
    /flaky/.test(user) &&
    trailingResults.some((result) => result.includes('timeout'))
  )
    turn = { toolCalls: [{ id: 'call_retry', name: 'flaky_quote', arguments: '{}' }] };
  else if (trailingResults.length > 0)
    turn = { text: `From tools: ${trailingResults.join(' | ')}` };
  else if (/flaky/.test(user))
    turn = { toolCalls: [{ id: 'call_first', name: 'flaky_quote', arguments: '{}' }] };
  else if (/balance and email/.test(user))
    turn = {
      toolCalls: [
        { id: 'call_bal', name: 'get_balance', arguments: '{"account_id":"ACC-7"}' },
        { id: 'call_mail', name: 'send_email', arguments: '{"to":"ann@example.com"}' },
      ],
    };
  else if (/balance/.test(user))
    turn = {
      text: 'Let me look that up.',
      toolCalls: [{ id: 'call_bal', name: 'get_balance', arguments: '{"account_id":"ACC-1"}' }],
    };
  else if (/email/i.test(user))
    turn = {
      toolCalls: [{ id: 'call_mail', name: 'send_email', arguments: '{"to":"bob@example.com"}' }],
    };
  else turn = { text: `You said: ${user}` };
  return body.stream
    ? {
        kind: 'sse',
        body: encodeSse(
          chatCompletionChunks(turn, seededRandom(callNumber + 1), { includeUsage: true }),
        ),
        split: { seed: callNumber, maxPiece: 11 },
      }
    : { kind: 'json', body: chatCompletion(turn) };
}

const mockFile = `
tools:
  get_balance: { type: object, properties: { account_id: { type: string } }, required: [account_id] }
  flaky_quote: { type: object, properties: {} }
mocks:
  - tool: get_balance
    result: { balance: 120, currency: EUR, account: "{{args.account_id}}" }
  - tool: flaky_quote
    sequence: [{ error: timeout }, { result: { price: 9.5 } }]
`;

const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  'get_balance',
  'send_email',
  'flaky_quote',
].map((name) => ({
  type: 'function',
  function: { name, parameters: { type: 'object', properties: {} } },
}));

async function setup(
  overrides: Partial<Config['mocks']> = {},
  mode: Config['mode'] = 'record',
  cassette = join(temporaryFolder(), 'bank.sqlite'),
  upstreamUrl?: string,
): Promise<{
  client: OpenAI;
  proxy: TestProxy;
  upstream: ScriptedUpstream | undefined;
  cassette: string;
}> {
  const upstream = upstreamUrl ? undefined : await startScriptedUpstream(bankModel);
  if (upstream) running.push(upstream);
  const folder = temporaryFolder();
  writeFileSync(join(folder, 'bank.yaml'), mockFile);
  const proxy = await startTestProxy(upstreamUrl ?? (upstream as ScriptedUpstream).url, {
    mode,
    cassette,
    mocks: {
      files: [join(folder, 'bank.yaml')],
      active: null,
      mode: 'intercept',
      maxHiddenRounds: 3,
      strictTools: false,
      allowTools: [],
      ...overrides,
    },
  });
  running.push(proxy);
  return {
    client: new OpenAI({
      apiKey: 'sk-test-key-0123456789abcdef',
      baseURL: proxy.baseUrl,
      maxRetries: 0,
    }),
    proxy,
    upstream,
    cassette,
  };
}

async function ask(
  client: OpenAI,
  messages: ChatCompletionMessageParam[],
  stream: boolean,
): Promise<OpenAI.Chat.Completions.ChatCompletionMessage> {
  if (!stream)
    return (await client.chat.completions.create({ model: 'bank-model', messages, tools }))
      .choices[0]?.message as OpenAI.Chat.Completions.ChatCompletionMessage;
  return (
    await client.chat.completions
      .stream({ model: 'bank-model', messages, tools, stream_options: { include_usage: true } })
      .finalChatCompletion()
  ).choices[0]?.message as OpenAI.Chat.Completions.ChatCompletionMessage;
}

const toolNames = (message: OpenAI.Chat.Completions.ChatCompletionMessage | undefined): string[] =>
  (message?.tool_calls ?? []).map((call) =>
    call.type === 'function' ? call.function.name : call.custom.name,
  );
const upstreamMessages = (upstream: ScriptedUpstream, index: number): WireMessage[] =>
  (JSON.parse(upstream.received[index]?.body ?? '{}') as { messages: WireMessage[] }).messages;

describe.each([false, true])('mock tools answered inside the proxy (stream: %s)', (stream) => {
  it('hides a mocked call: the agent gets the final answer built on the mock result, and later turns carry the hidden history', async () => {
    const { client, upstream } = await setup();
    const history: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'What is my balance?' },
    ];
    const answer = await ask(client, history, stream);
    expect(answer.tool_calls ?? []).toEqual([]);
    expect(answer.content).toBe('From tools: {"balance":120,"currency":"EUR","account":"ACC-1"}');
    // The model saw its own call and the mock's result in a hidden round.
    expect(upstream?.received).toHaveLength(2);
    const hiddenRound = upstreamMessages(upstream as ScriptedUpstream, 1);
    expect(hiddenRound.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(hiddenRound[1]).toMatchObject({
      content: 'Let me look that up.',
      tool_calls: [{ id: 'call_bal', function: { name: 'get_balance' } }],
    });

    // The next user turn goes upstream with the hidden turn spliced back in.
    history.push(
      { role: 'assistant', content: answer.content },
      { role: 'user', content: 'Thanks!' },
    );
    expect((await ask(client, history, stream)).content).toBe('You said: Thanks!');
    expect(
      upstreamMessages(upstream as ScriptedUpstream, 2).map((message) => [
        message.role,
        message.tool_call_id ?? message.content,
      ]),
    ).toEqual([
      ['user', 'What is my balance?'],
      ['assistant', 'Let me look that up.'],
      ['tool', 'call_bal'],
      ['assistant', 'From tools: {"balance":120,"currency":"EUR","account":"ACC-1"}'],
      ['user', 'Thanks!'],
    ]);
  });

  it('splits a mixed parallel turn: the agent runs only its own tool, and the provider still sees every call answered', async () => {
    const { client, upstream } = await setup();
    const history: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Check my balance and email Ann' },
    ];
    const turn = await ask(client, history, stream);
    expect(toolNames(turn)).toEqual(['send_email']);
    history.push(turn as ChatCompletionMessageParam, {
      role: 'tool',
      tool_call_id: 'call_mail',
      content: 'sent',
    });
    const final = await ask(client, history, stream);
    expect(final.content).toBe(
      'From tools: {"balance":120,"currency":"EUR","account":"ACC-7"} | sent',
    );
    const sent = upstreamMessages(upstream as ScriptedUpstream, 1);
    expect(sent.map((message) => [message.role, message.tool_call_id ?? null])).toEqual([
      ['user', null],
      ['assistant', null],
      ['tool', 'call_bal'],
      ['tool', 'call_mail'],
    ]);
    expect(sent[1]?.tool_calls?.map((call) => call.id)).toEqual(['call_bal', 'call_mail']);
  });
});

describe('mock tools: policies', () => {
  it('answers a sequence across hidden rounds: first a timeout, then the price', async () => {
    const { client, upstream } = await setup();
    const answer = await ask(
      client,
      [{ role: 'user', content: 'Quote me, the service is flaky' }],
      false,
    );
    expect(answer.content).toBe('From tools: {"price":9.5}');
    expect(upstream?.received).toHaveLength(3);
    expect(upstreamMessages(upstream as ScriptedUpstream, 1).at(-1)?.content).toBe(
      '{"error":"timeout"}',
    );
  });

  it('strict tools: a call to a tool neither mocked nor allowed is refused with a clear error', async () => {
    const { client, proxy } = await setup({ strictTools: true });
    const refused = await ask(client, [{ role: 'user', content: 'Email Bob' }], false).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(403);
    expect((refused as Error).message).toContain(
      'the model called send_email, which is neither mocked nor allowed (mocks.strictTools)',
    );
    expect(proxy.stats.refused).toBe(1);
    const allowed = await setup({ strictTools: true, allowTools: ['send_email'] });
    expect(
      toolNames(await ask(allowed.client, [{ role: 'user', content: 'Email Bob' }], false)),
    ).toEqual(['send_email']);
  });

  it('the loop guard stops a model that keeps calling mocked tools', async () => {
    const { client, upstream } = await setup({ maxHiddenRounds: 3 });
    const stopped = await ask(client, [{ role: 'user', content: 'balance forever' }], true).catch(
      (error: unknown) => error,
    );
    expect((stopped as InstanceType<typeof OpenAI.APIError>).status).toBe(508);
    expect((stopped as Error).message).toContain(
      'the model kept calling mocked tools for 4 rounds (mocks.maxHiddenRounds is 3)',
    );
    expect(upstream?.received).toHaveLength(4);
  });

  it('x-calltape-mocks selects the sets per request: none lets the agent see the call', async () => {
    const { client } = await setup();
    const completion = await client.chat.completions.create(
      { model: 'bank-model', messages: [{ role: 'user', content: 'What is my balance?' }], tools },
      { headers: { 'x-calltape-mocks': 'none' } },
    );
    expect(toolNames(completion.choices[0]?.message)).toEqual(['get_balance']);
    const unknown = await client.chat.completions
      .create(
        { model: 'bank-model', messages: [{ role: 'user', content: 'hi' }], tools },
        { headers: { 'x-calltape-mocks': 'shipping' } },
      )
      .catch((error: unknown) => error);
    expect((unknown as Error).message).toContain(
      'x-calltape-mocks: no mock set named "shipping" (loaded: bank)',
    );
  });

  it('override mode: the agent runs its tool, the model gets the mock result, and the cassette keeps both', async () => {
    const { client, upstream, proxy, cassette } = await setup({ mode: 'override' });
    const history: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Quote me, the service is flaky' },
    ];
    const first = await ask(client, history, true);
    // Nothing is hidden: the agent sees the call and runs its own tool.
    expect(toolNames(first)).toEqual(['flaky_quote']);
    history.push(first as ChatCompletionMessageParam, {
      role: 'tool',
      tool_call_id: 'call_first',
      content: 'real quote: 11.0',
    });
    const retry = await ask(client, history, true);
    expect(upstreamMessages(upstream as ScriptedUpstream, 1).at(-1)).toMatchObject({
      role: 'tool',
      content: '{"error":"timeout"}',
    });
    expect(toolNames(retry)).toEqual(['flaky_quote']);
    history.push(retry as ChatCompletionMessageParam, {
      role: 'tool',
      tool_call_id: 'call_retry',
      content: 'real quote: 11.5',
    });
    // The first result is sent again: it keeps its first answer, and the sequence moves on only for the new call.
    expect((await ask(client, history, true)).content).toBe('From tools: {"price":9.5}');
    expect(
      upstreamMessages(upstream as ScriptedUpstream, 2)
        .filter((message) => message.role === 'tool')
        .map((message) => message.content),
    ).toEqual(['{"error":"timeout"}', '{"price":9.5}']);
    await proxy.close();
    const store = new SqliteStore(cassette, { readonly: true });
    expect(store.toolCalls().map((call) => [call.callId, call.mocked])).toEqual([
      ['call_first', true],
      ['call_retry', true],
    ]);
    expect(
      store
        .interactions()
        .map((interaction) =>
          interaction.mocked?.map((call) => [call.callId, call.content, call.agentResult]),
        ),
    ).toEqual([
      undefined,
      [['call_first', '{"error":"timeout"}', 'real quote: 11.0']],
      [
        ['call_first', '{"error":"timeout"}', 'real quote: 11.0'],
        ['call_retry', '{"price":9.5}', 'real quote: 11.5'],
      ],
    ]);
    store.close();
  });

  it('records every round with the mocked calls marked, and replays the whole exchange offline', async () => {
    const recorded = await setup();
    const history: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Check my balance and email Ann' },
    ];
    const turn = await ask(recorded.client, history, true);
    history.push(turn as ChatCompletionMessageParam, {
      role: 'tool',
      tool_call_id: 'call_mail',
      content: 'sent',
    });
    const final = await ask(recorded.client, history, true);
    const balance = await ask(
      recorded.client,
      [{ role: 'user', content: 'What is my balance?' }],
      true,
    );
    await recorded.proxy.close();

    const store = new SqliteStore(recorded.cassette, { readonly: true });
    const calls = store.toolCalls();
    const interactions = store.interactions();
    store.close();
    expect(calls.map((call) => [call.name, call.mocked])).toEqual([
      ['get_balance', true],
      ['send_email', false],
      ['get_balance', true],
    ]);
    expect(interactions.map((interaction) => interaction.hidden ?? false)).toEqual([
      false,
      false,
      true,
      false,
    ]);
    // Both views: what the agent sent and got, where they differ from what went upstream.
    const db = new Database(recorded.cassette, { readonly: true });
    const views = db
      .prepare(
        'SELECT agent_request_body AS sent, agent_response_body AS got FROM interactions ORDER BY seq',
      )
      .all() as { sent: Buffer | null; got: Buffer | null }[];
    db.close();
    expect(views.map((view) => [view.sent !== null, view.got !== null])).toEqual([
      [false, true],
      [true, false],
      [false, false],
      [false, false],
    ]);
    expect(views[0]?.got?.toString()).not.toContain('call_bal');
    expect(
      JSON.parse(views[1]?.sent?.toString() ?? '{}').messages.map(
        (message: WireMessage) => message.role,
      ),
    ).toEqual(['user', 'assistant', 'tool']);
    const trajectories = buildTrajectories(interactions);
    expect(
      trajectories.map((run) =>
        run.calls.map((call) => [call.name, call.mocked, call.result?.text]),
      ),
    ).toEqual([
      [
        ['get_balance', true, '{"balance":120,"currency":"EUR","account":"ACC-7"}'],
        ['send_email', false, 'sent'],
      ],
      [['get_balance', true, '{"balance":120,"currency":"EUR","account":"ACC-1"}']],
    ]);

    // Offline: the upstream is unreachable; every round, hidden ones included, comes from the cassette.
    const replayed = await setup({}, 'replay', recorded.cassette, 'http://127.0.0.1:1');
    const history2: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Check my balance and email Ann' },
    ];
    const turn2 = await ask(replayed.client, history2, true);
    expect(toolNames(turn2)).toEqual(['send_email']);
    history2.push(turn2 as ChatCompletionMessageParam, {
      role: 'tool',
      tool_call_id: 'call_mail',
      content: 'sent',
    });
    expect((await ask(replayed.client, history2, true)).content).toBe(final.content);
    expect(
      (await ask(replayed.client, [{ role: 'user', content: 'What is my balance?' }], true))
        .content,
    ).toBe(balance.content);
    expect(replayed.proxy.stats).toMatchObject({ hits: 4, misses: 0 });
  });
});
