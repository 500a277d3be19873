import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ollama, type ChatResponse, type Message, type Tool } from 'ollama';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import { packageRoot } from '../../src/package-root.js';
import type { Config } from '../../src/config/config.js';
import { runCliAsync } from '../support/cli.js';
import { ollamaModel, ollamaShow, ollamaTags } from '../support/ollama-model.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

type TestProxy = Awaited<ReturnType<typeof startTestProxy>>;
const running: (TestProxy | ScriptedUpstream)[] = [];
afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
});

const tools: Tool[] = ['get_weather', 'get_balance', 'send_email'].map((name) => ({
  type: 'function',
  function: { name, description: name, parameters: { type: 'object', properties: {} } },
}));

/** The URL of a port nothing listens on any more: an upstream that is gone. */
async function goneUpstream(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

async function setup(
  overrides: Partial<Config>,
  options: { readonly ids: boolean; readonly upstreamUrl?: string },
): Promise<{ client: Ollama; proxy: TestProxy; upstream: ScriptedUpstream | undefined }> {
  const upstream =
    options.upstreamUrl === undefined
      ? await startScriptedUpstream(ollamaModel({ ids: options.ids }))
      : undefined;
  if (upstream) running.push(upstream);
  const proxy = await startTestProxy('http://127.0.0.1:1', {
    ollamaUpstream: options.upstreamUrl ?? upstream?.url ?? '',
    ...overrides,
  });
  running.push(proxy);
  // The client unmodified but for its host: calltape's origin.
  return { client: new Ollama({ host: proxy.url }), proxy, upstream };
}

/** One chat turn through the client, streamed (parts gathered as Ollama's docs show) or whole. */
async function chat(
  client: Ollama,
  messages: Message[],
  stream: boolean,
): Promise<Pick<ChatResponse, 'message' | 'done_reason' | 'eval_count'>> {
  const request = { model: 'llama3.2', messages, tools };
  if (!stream) {
    const { message, done_reason, eval_count } = await client.chat({ ...request, stream: false });
    return { message, done_reason, eval_count };
  }
  const message: Message = { role: 'assistant', content: '' };
  let last: ChatResponse | undefined;
  for await (const part of await client.chat({ ...request, stream: true })) {
    message.content += part.message.content;
    if (part.message.tool_calls)
      message.tool_calls = [...(message.tool_calls ?? []), ...part.message.tool_calls];
    last = part;
  }
  return { message, done_reason: last?.done_reason ?? '', eval_count: last?.eval_count ?? 0 };
}

const mocksFile = (folder: string): Partial<Config> => {
  writeFileSync(
    join(folder, 'bank.yaml'),
    'mocks:\n  - tool: get_balance\n    result: { balance: 120 }\n',
  );
  return {
    mocks: {
      files: [join(folder, 'bank.yaml')],
      active: null,
      mode: 'intercept',
      maxHiddenRounds: 4,
      strictTools: false,
      allowTools: [],
    },
  };
};

describe.each([
  { stream: false, ids: true },
  { stream: true, ids: true },
  { stream: true, ids: false },
])('Ollama /api/chat through the proxy (stream: $stream, call ids: $ids)', ({ stream, ids }) => {
  it('records parallel calls, lists them with calltape calls, and replays offline with the upstream down (model list and show too)', async () => {
    const cassette = join(temporaryFolder(), 'ollama.sqlite');
    const { client, proxy } = await setup({ cassette, mode: 'record' }, { ids });
    expect(await client.list()).toEqual(ollamaTags);
    expect(await client.show({ model: 'llama3.2' })).toEqual(ollamaShow('llama3.2'));
    // Passed through to the Ollama upstream, not captured.
    expect((await client.generate({ model: 'llama3.2', prompt: 'hi' })).response).toBe('Hi.');
    const question: Message = { role: 'user', content: 'What is the weather in Paris and Tokyo?' };
    const first = await chat(client, [question], stream);
    expect(first.message.tool_calls?.map((call) => call.function)).toEqual([
      { index: 0, name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
      { index: 1, name: 'get_weather', arguments: { city: 'Tokyo', unit: 'celsius' } },
    ]);
    const results: Message[] = ['11°C', '18°C'].map((content) => ({
      role: 'tool',
      tool_name: 'get_weather',
      content,
    }));
    const second = await chat(client, [question, first.message, ...results], stream);
    expect(second.message.content).toBe('Results: get_weather=11°C; get_weather=18°C');
    await proxy.close();

    const store = new SqliteStore(cassette, { readonly: true });
    const stored = store.interactions();
    store.close();
    // The model list and card are recorded as reads: replayed, never rounds of the agent's run.
    expect(
      stored.filter((interaction) => interaction.read).map((interaction) => interaction.path),
    ).toEqual(['/api/tags', '/api/show']);
    expect(stored.map((interaction) => interaction.path)).not.toContain('/api/generate');
    const chats = stored.filter((interaction) => interaction.path === '/api/chat');
    expect(chats.map((interaction) => [interaction.provider, interaction.status])).toEqual([
      ['ollama-chat', 'complete'],
      ['ollama-chat', 'complete'],
    ]);
    const calls = chats[0]?.response?.output.toolCalls ?? [];
    // The results the agent sent back (by tool_name) are paired with the calls they answer.
    expect(chats[1]?.request.messages.slice(2).map((message) => message.toolCallId)).toEqual(
      calls.map((call) => call.id),
    );
    const listed = await runCliAsync(['calls', '--cassette', cassette, '--json']);
    expect(listed.status, listed.stderr).toBe(0);
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { name: string; arguments: unknown }),
    ).toMatchObject([
      { name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
      { name: 'get_weather', arguments: { city: 'Tokyo', unit: 'celsius' } },
    ]);

    const replayer = await setup(
      { cassette, mode: 'replay' },
      { ids, upstreamUrl: await goneUpstream() },
    );
    expect(await replayer.client.list()).toEqual(ollamaTags);
    expect(await replayer.client.show({ model: 'llama3.2' })).toEqual(ollamaShow('llama3.2'));
    expect(await chat(replayer.client, [question], stream)).toEqual(first);
    expect(await chat(replayer.client, [question, first.message, ...results], stream)).toEqual(
      second,
    );
  });

  it('answers a mocked tool inside calltape; the client gets a well-formed turn without it and the next request carries its result', async () => {
    const { client, upstream } = await setup(mocksFile(temporaryFolder()), { ids });
    const hidden = await chat(client, [{ role: 'user', content: 'What is my balance?' }], stream);
    expect(hidden.message.content).toBe('Results: get_balance={"balance":120}');
    expect(hidden.message.tool_calls ?? []).toEqual([]);
    expect(hidden.done_reason).toBe('stop');

    const question: Message = { role: 'user', content: 'Check my balance and email Ann' };
    const mixed = await chat(client, [question], stream);
    expect(mixed.message.content).toBe('Checking both.');
    expect(mixed.message.tool_calls?.map((call) => call.function.name)).toEqual(['send_email']);
    const answered = await chat(
      client,
      [question, mixed.message, { role: 'tool', tool_name: 'send_email', content: 'sent' }],
      stream,
    );
    expect(answered.message.content).toBe('Results: get_balance={"balance":120}; send_email=sent');
    const sent = JSON.parse(upstream?.received.at(-1)?.body ?? '{}') as {
      messages: { role: string; tool_calls?: unknown[] }[];
    };
    // The hidden call and its result are spliced back in front of the agent's own result.
    expect(sent.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
    ]);
    expect(sent.messages[1]?.tool_calls).toHaveLength(2);
  });
});

describe("Ollama's OpenAI-compatible /v1", () => {
  it('works through the OpenAI Chat Completions route with the openai client, upstream set to the Ollama server', async () => {
    const upstream = await startScriptedUpstream([
      {
        kind: 'json',
        body: chatCompletion({
          model: 'llama3.2',
          toolCalls: [{ id: 'call_x1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
        }),
      },
    ]);
    running.push(upstream);
    const cassette = join(temporaryFolder(), 'ollama-v1.sqlite');
    // calltape's `upstream` is the Ollama server (a trailing /v1 in the setting is dropped on loading).
    const proxy = await startTestProxy(upstream.url, { cassette, mode: 'record' });
    running.push(proxy);
    const client = new OpenAI({ apiKey: 'ollama', baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    const answer = await client.chat.completions.create({
      model: 'llama3.2',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: {} } }],
    });
    expect(answer.choices[0]?.message.tool_calls?.[0]).toMatchObject({ id: 'call_x1' });
    expect(upstream.received[0]?.url).toBe('/v1/chat/completions');
    await proxy.close();
    const store = new SqliteStore(cassette, { readonly: true });
    const [interaction] = store.interactions();
    store.close();
    expect(interaction?.provider).toBe('openai-chat');
    expect(interaction?.response?.output.toolCalls.map((call) => call.name)).toEqual([
      'get_weather',
    ]);
  });
});

describe('Ollama runs scored', () => {
  it('scores a suite over a recorded Ollama run (calltape score); the model list and card are not rounds', async () => {
    const folder = temporaryFolder();
    const cassette = join(folder, 'ollama.sqlite');
    const { proxy } = await setup({ cassette, mode: 'record' }, { ids: false });
    // The case's session comes from the host's /s/<case>/ prefix, which the client keeps.
    const client = new Ollama({ host: `${proxy.url}/s/weather` });
    await client.list();
    await client.show({ model: 'llama3.2' });
    const question: Message = { role: 'user', content: 'What is the weather in Paris and Tokyo?' };
    const first = await chat(client, [question], true);
    await chat(
      client,
      [question, first.message, { role: 'tool', tool_name: 'get_weather', content: '11°C' }],
      true,
    );
    await proxy.close();
    const suite = join(folder, 'ollama.json');
    writeFileSync(
      suite,
      JSON.stringify({
        name: 'ollama',
        cassette,
        cases: [
          {
            test_id: 'weather',
            prompt: question.content,
            expected_calls: [
              { expected_tool: 'get_weather', arguments: { city: 'Tokyo', unit: 'celsius' } },
              { expected_tool: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
            ],
            expect: { max_rounds: 2 },
          },
        ],
      }),
    );
    const json = join(folder, 'report.json');
    const scored = await runCliAsync(['score', '--suite', suite, '--json', json]);
    expect(scored.status, scored.stdout + scored.stderr).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      cases: { test_id: string; status: string; score: number; rounds: number }[];
    };
    expect(
      report.cases.map((item) => [item.test_id, item.status, item.score, item.rounds]),
    ).toEqual([['weather', 'pass', 1, 2]]);
  });
});

describe('An Ollama agent under calltape test', () => {
  it('finds calltape through OLLAMA_HOST (passed as the client host), records, and replays offline', async () => {
    const folder = temporaryFolder();
    const client = join(packageRoot, 'node_modules/ollama/dist/index.mjs');
    writeFileSync(
      join(folder, 'agent.mjs'),
      [
        `import { Ollama } from ${JSON.stringify(client)};`,
        'const ollama = new Ollama({ host: process.env.OLLAMA_HOST });',
        "const tools = [{ type: 'function', function: { name: 'get_weather', parameters: {} } }];",
        "const messages = [{ role: 'user', content: process.argv[2] }];",
        'await ollama.list();',
        "const first = await ollama.chat({ model: 'llama3.2', messages, tools });",
        'messages.push(first.message);',
        "for (const call of first.message.tool_calls ?? []) messages.push({ role: 'tool', tool_name: call.function.name, content: 'mild' });",
        "const second = await ollama.chat({ model: 'llama3.2', messages, tools });",
        'console.log(second.message.content);',
      ].join('\n'),
    );
    const upstream = await startScriptedUpstream(ollamaModel({ ids: false }));
    running.push(upstream);
    const suite = join(folder, 'suite.json');
    writeFileSync(
      suite,
      JSON.stringify({
        name: 'ollama-agent',
        cassette: 'ollama-agent.sqlite',
        agent: { command: `node ${join(folder, 'agent.mjs')}` },
        cases: [
          {
            test_id: 'weather',
            prompt: 'What is the weather in Paris and Tokyo?',
            expected_calls: [
              { expected_tool: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
              { expected_tool: 'get_weather', arguments: { city: 'Tokyo', unit: 'celsius' } },
            ],
            expect: { max_rounds: 2 },
          },
        ],
      }),
    );
    const recorded = await runCliAsync(['test', suite, '--mode', 'record', '--no-store'], {
      env: { CALLTAPE_OLLAMA_UPSTREAM: upstream.url },
    });
    expect(recorded.status, recorded.stdout + recorded.stderr).toBe(0);
    expect(recorded.stdout).toContain('(1/1 cases passed)');
    await upstream.close();
    const replayed = await runCliAsync(['test', suite, '--no-store']);
    expect(replayed.status, replayed.stdout + replayed.stderr).toBe(0);
    expect(replayed.stdout).toContain('(1/1 cases passed)');
  });
});

describe('Ollama errors through the proxy', () => {
  it("answers a malformed body in Ollama's error shape, and the client raises calltape's errors", async () => {
    const cassette = join(temporaryFolder(), 'errors.sqlite');
    const { proxy } = await setup({ mode: 'record', cassette }, { ids: true });
    const raw = await fetch(`${proxy.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"model": "llama3.2", "messages": [',
    });
    expect(raw.status).toBe(400);
    const body = (await raw.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['error']);
    expect(body['error']).toMatch(/not valid JSON/);
    await proxy.close();

    const replay = await setup(
      { mode: 'replay', cassette },
      { ids: true, upstreamUrl: await goneUpstream() },
    );
    await expect(
      replay.client.chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ name: 'ResponseError', error: expect.stringMatching(/calltape/) });
  });
});
