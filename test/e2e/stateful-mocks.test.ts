import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { chatCompletion, type ScriptedTurn } from '../support/openai-chat-chunks.js';
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

/** An order assistant: "cancel X" calls cancel_order, "status of X" calls get_order; after results it repeats them. */
function orderModel(request: ReceivedRequest): ScriptedResponse {
  const { messages } = JSON.parse(request.body) as {
    messages: { role: string; content: string | null }[];
  };
  const last = messages.at(-1);
  const user = [...messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  const order = /[A-Z]-\d+/.exec(user)?.[0] ?? '';
  let turn: ScriptedTurn;
  if (last?.role === 'tool') turn = { text: `From tools: ${last.content ?? ''}` };
  else if (/cancel/.test(user))
    turn = {
      toolCalls: [
        { id: 'call_c', name: 'cancel_order', arguments: JSON.stringify({ order_id: order }) },
      ],
    };
  else
    turn = {
      toolCalls: [
        { id: 'call_g', name: 'get_order', arguments: JSON.stringify({ order_id: order }) },
      ],
    };
  return { kind: 'json', body: chatCompletion(turn) };
}

const mockFile = `
state: {}
mocks:
  - tool: cancel_order
    result: { cancelled: "{{args.order_id}}" }
    set: { "status:{{args.order_id}}": cancelled }
  - tool: get_order
    when:
      - state: { "status:{{args.order_id}}": cancelled }
        result: { order_id: "{{args.order_id}}", status: cancelled }
    otherwise: { result: { order_id: "{{args.order_id}}", status: shipped } }
`;

const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = ['cancel_order', 'get_order'].map(
  (name) => ({
    type: 'function',
    function: {
      name,
      parameters: { type: 'object', properties: { order_id: { type: 'string' } } },
    },
  }),
);

async function proxyWith(
  mode: Config['mode'],
  cassette: string,
  upstream: string,
): Promise<TestProxy> {
  const folder = temporaryFolder();
  writeFileSync(join(folder, 'orders.yaml'), mockFile);
  const proxy = await startTestProxy(upstream, {
    mode,
    cassette,
    mocks: {
      files: [join(folder, 'orders.yaml')],
      active: null,
      mode: 'intercept',
      maxHiddenRounds: 3,
      strictTools: false,
      allowTools: [],
    },
  });
  running.push(proxy);
  return proxy;
}

/** One user message in a session, through the proxy with the official SDK; the agent's reply text. */
async function say(proxy: TestProxy, session: string, text: string): Promise<string | null> {
  const client = new OpenAI({
    apiKey: 'sk-test-key-0123456789abcdef',
    baseURL: proxy.baseUrl,
    maxRetries: 0,
    defaultHeaders: { 'x-calltape-session': session },
  });
  const completion = await client.chat.completions.create({
    model: 'order-model',
    messages: [{ role: 'user', content: text }],
    tools,
  });
  return completion.choices[0]?.message.content ?? null;
}

async function conversation(proxy: TestProxy): Promise<(string | null)[]> {
  return [
    await say(proxy, 'case-1', 'please cancel A-17'),
    await say(proxy, 'case-1', 'status of A-17?'),
    await say(proxy, 'case-2', 'status of A-17?'),
  ];
}

describe('mocks that remember, through the proxy with the openai SDK', () => {
  it('cancel then get sees cancelled in that session; another session still sees the original; replay gives the same offline', async () => {
    const upstream = await startScriptedUpstream(orderModel);
    running.push(upstream);
    const cassette = join(temporaryFolder(), 'orders.sqlite');
    const recorded = await conversation(await proxyWith('record', cassette, upstream.url));
    expect(recorded).toEqual([
      'From tools: {"cancelled":"A-17"}',
      'From tools: {"order_id":"A-17","status":"cancelled"}',
      'From tools: {"order_id":"A-17","status":"shipped"}',
    ]);
    for (const item of running.splice(0).reverse()) await item.close();

    // Each call's state changes are kept with the mocked call in the cassette.
    const database = new Database(cassette, { readonly: true });
    const stored = database
      .prepare(
        'SELECT session_id, mocked_calls FROM interactions WHERE mocked_calls IS NOT NULL ORDER BY started_at',
      )
      .all() as { session_id: string; mocked_calls: string }[];
    database.close();
    expect(stored.map((row) => [row.session_id, JSON.parse(row.mocked_calls)[0].state])).toEqual([
      ['case-1', { 'status:A-17': 'cancelled' }],
      ['case-1', undefined],
      ['case-2', undefined],
    ]);

    // Replay starts from the declared state again: the same answers, without the upstream.
    const replayed = await conversation(await proxyWith('replay', cassette, 'http://127.0.0.1:9'));
    expect(replayed).toEqual(recorded);
  });
});
