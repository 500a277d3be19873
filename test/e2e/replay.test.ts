import { defaultConfig } from '../../src/config/config.js';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import type { Config } from '../../src/config/config.js';
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

const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
    },
  },
];
const weatherTurn = (city: string): ScriptedTurn => ({
  text: `Checking ${city}.`,
  toolCalls: [{ id: `call_${city}`, name: 'get_weather', arguments: JSON.stringify({ city }) }],
});

/** Answers like a model: the turn depends on the last user message; streamed when asked. */
function modelScript(request: ReceivedRequest, callNumber: number): ScriptedResponse {
  const body = JSON.parse(request.body) as {
    stream?: boolean;
    messages: { role: string; content: string }[];
  };
  const city = /in (\w+)/.exec(body.messages.at(-1)?.content ?? '')?.[1] ?? 'Nowhere';
  const turn = { ...weatherTurn(city), text: `Checking ${city} (answer ${callNumber + 1}).` };
  return body.stream
    ? {
        kind: 'sse',
        body: encodeSse(
          chatCompletionChunks(turn, seededRandom(callNumber + 1), { includeUsage: true }),
        ),
        split: { seed: callNumber, maxPiece: 7 },
      }
    : { kind: 'json', body: chatCompletion(turn) };
}

async function start(
  upstreamUrl: string,
  cassette: string,
  overrides: Partial<Config>,
): Promise<{ proxy: TestProxy; client: OpenAI }> {
  const proxy = await startTestProxy(upstreamUrl, { cassette, ...overrides });
  running.push(proxy);
  return {
    proxy,
    client: new OpenAI({
      apiKey: 'sk-test-key-0123456789abcdef',
      baseURL: proxy.baseUrl,
      maxRetries: 0,
    }),
  };
}

/** Records what `run` asks the scripted model into a new cassette; the upstream keeps running (closed after the test). */
async function record<T>(
  run: (client: OpenAI) => Promise<T>,
  overrides: Partial<Config> = {},
): Promise<{ recorded: T; upstream: ScriptedUpstream; cassette: string }> {
  const upstream = await startScriptedUpstream(modelScript);
  running.push(upstream);
  const cassette = join(temporaryFolder(), 'c.sqlite');
  const recorder = await start(upstream.url, cassette, { mode: 'record', ...overrides });
  const recorded = await run(recorder.client);
  await recorder.proxy.close();
  return { recorded, upstream, cassette };
}

async function recordThenReplay(
  run: (client: OpenAI) => Promise<unknown>,
  replayOverrides: Partial<Config> = {},
): Promise<{
  recorded: unknown;
  replayed: unknown;
  upstream: ScriptedUpstream;
  cassette: string;
  proxy: TestProxy;
}> {
  const { recorded, upstream, cassette } = await record(run);
  await upstream.close();
  // The upstream is gone: everything below must come from the cassette.
  const replayer = await start('http://127.0.0.1:1', cassette, {
    mode: 'replay',
    ...replayOverrides,
  });
  const replayed = await run(replayer.client);
  return { recorded, replayed, upstream, cassette, proxy: replayer.proxy };
}

describe('record, then replay offline', () => {
  it('replays non-streamed and streamed answers identically, tool calls included', async () => {
    const run = async (client: OpenAI) => {
      const plain = await client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools,
      });
      const streamed = await client.chat.completions
        .stream({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: 'Weather in Tokyo?' }],
          tools,
          stream_options: { include_usage: true },
        })
        .finalChatCompletion();
      return { plain, streamed };
    };
    const { recorded, replayed, proxy } = await recordThenReplay(run);
    expect(replayed).toEqual(recorded);
    expect(proxy.stats).toMatchObject({ hits: 2, misses: 0 });
    expect(proxy.unusedRecordings()).toEqual([]);
  });

  it('re-emits a stream with its recorded chunk boundaries, byte for byte', async () => {
    const upstream = await startScriptedUpstream([
      {
        kind: 'sse',
        body: encodeSse(chatCompletionChunks(weatherTurn('Oslo'), seededRandom(5))),
        split: { seed: 3, maxPiece: 11 },
      },
    ]);
    const cassette = join(temporaryFolder(), 'c.sqlite');
    const body = JSON.stringify({
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
    });
    const recorder = await start(upstream.url, cassette, { mode: 'record' });
    const original = await (
      await fetch(`${recorder.proxy.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
    ).text();
    await recorder.proxy.close();
    await upstream.close();
    const replayer = await start('http://127.0.0.1:1', cassette, {
      mode: 'replay',
      replayTiming: 'exact',
    });
    const response = await fetch(`${replayer.proxy.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const pieces: string[] = [];
    const decoder = new TextDecoder();
    for await (const chunk of response.body as AsyncIterable<Uint8Array>)
      pieces.push(decoder.decode(chunk, { stream: true }));
    expect(pieces.join('')).toBe(original);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('x-calltape-replay')).toMatch(/^[0-9a-f-]{36}$/);
    // Paced at the recorded times, the pieces cannot all arrive in one read.
    expect(pieces.length).toBeGreaterThan(1);
  });

  it('answers the Nth identical request with the Nth recording, then errors when they run out', async () => {
    const run = async (client: OpenAI) => {
      const answers: string[] = [];
      for (let i = 0; i < 3; i++)
        answers.push(
          (
            await client.chat.completions.create({
              model: 'm',
              messages: [{ role: 'user', content: 'Weather in Rome?' }],
            })
          ).choices[0]?.message.content ?? '',
        );
      return answers;
    };
    const { recorded, replayed, proxy, cassette } = await recordThenReplay(run);
    expect(recorded).toEqual([
      'Checking Rome (answer 1).',
      'Checking Rome (answer 2).',
      'Checking Rome (answer 3).',
    ]);
    expect(replayed).toEqual(recorded);

    const { client } = await start('http://127.0.0.1:1', cassette, { mode: 'replay' });
    await run(client);
    const fourth = (await client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'Weather in Rome?' }] })
      .catch((error: unknown) => error)) as InstanceType<typeof OpenAI.APIError>;
    expect(fourth.status).toBe(404);
    expect(fourth.message).toMatch(/was recorded 3 time\(s\); this is request 4 of it/);
    await proxy.close();

    const { client: lenient } = await start('http://127.0.0.1:1', cassette, {
      mode: 'replay',
      match: {
        ignorePaths: [],
        normalisers: ['iso-datetime', 'uuid'],
        onExhausted: 'repeat-last',
        streamAgnostic: false,
      },
    });
    const answers = [
      ...(await run(lenient)),
      (
        await lenient.chat.completions.create({
          model: 'm',
          messages: [{ role: 'user', content: 'Weather in Rome?' }],
        })
      ).choices[0]?.message.content,
    ];
    expect(answers.at(-1)).toBe('Checking Rome (answer 3).');
  });

  it('counts identical requests per session', async () => {
    const ask = (client: OpenAI, session: string) =>
      client.chat.completions
        .create(
          { model: 'm', messages: [{ role: 'user', content: 'Weather in Lima?' }] },
          { headers: { 'x-calltape-session': session } },
        )
        .then((answer) => answer.choices[0]?.message.content);
    const { recorded, cassette } = await record(async (client) => [
      await ask(client, 'a'),
      await ask(client, 'b'),
      await ask(client, 'a'),
    ]);
    expect(recorded).toEqual([
      'Checking Lima (answer 1).',
      'Checking Lima (answer 2).',
      'Checking Lima (answer 3).',
    ]);
    const { client } = await start('http://127.0.0.1:1', cassette, { mode: 'replay' });
    // Session b's first request gets session b's recording, even when asked first.
    expect([await ask(client, 'b'), await ask(client, 'a'), await ask(client, 'a')]).toEqual([
      'Checking Lima (answer 2).',
      'Checking Lima (answer 1).',
      'Checking Lima (answer 3).',
    ]);
  });

  it('fails a drifted prompt with an SDK error naming the differing field', async () => {
    const { cassette, proxy } = await recordThenReplay((client) =>
      client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather in Paris?' },
        ],
        tools,
      }),
    );
    const client = new OpenAI({ apiKey: 'sk-x', baseURL: proxy.baseUrl, maxRetries: 0 });
    const error = (await client.chat.completions
      .create({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather in Pariss?' },
        ],
        tools,
      })
      .catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error.message).toContain(
      `cassette ${cassette} has no recording for POST /v1/chat/completions`,
    );
    expect(error.message).toContain('differs at messages[1].content');
    expect(error.message).toContain(
      'messages[1].content: "Weather in Paris?" → "Weather in Pariss?"',
    );
    expect(proxy.stats.misses).toBe(1);
  });

  it('matches a prompt whose date changed, through the default normalisers', async () => {
    const ask = (client: OpenAI, date: string) =>
      client.chat.completions.create({
        model: 'm',
        messages: [
          { role: 'system', content: `Today is ${date}.` },
          { role: 'user', content: 'Weather in Cairo?' },
        ],
      });
    const { cassette } = await record((client) => ask(client, '2026-11-30T09:00:00Z'));
    const { client, proxy } = await start('http://127.0.0.1:1', cassette, { mode: 'replay' });
    expect((await ask(client, '2026-12-24T18:30:00Z')).choices[0]?.message.content).toBe(
      'Checking Cairo (answer 1).',
    );
    expect(proxy.stats.hits).toBe(1);
  });

  it('re-keys recordings when the match rules change, without re-recording', async () => {
    const ask = (client: OpenAI, user: string) =>
      client.chat.completions.create({
        model: 'm',
        user,
        messages: [{ role: 'user', content: 'Weather in Kyiv?' }],
      });
    // Recorded with `user` as part of the key…
    const { cassette } = await record((client) => ask(client, 'alice'), {
      match: { ignorePaths: [], normalisers: [], onExhausted: 'error', streamAgnostic: false },
    });
    // …replayed under the defaults, which ignore it.
    const { client, proxy } = await start('http://127.0.0.1:1', cassette, { mode: 'replay' });
    expect((await ask(client, 'bob')).choices[0]?.message.content).toBe(
      'Checking Kyiv (answer 1).',
    );
    expect(proxy.stats.hits).toBe(1);
  });

  it('replays recorded upstream errors as recorded', async () => {
    const upstream = await startScriptedUpstream([
      {
        kind: 'json',
        status: 429,
        body: {
          error: {
            message: 'Rate limit reached',
            type: 'requests',
            param: null,
            code: 'rate_limit_exceeded',
          },
        },
        headers: { 'retry-after': '7' },
      },
    ]);
    running.push(upstream);
    const cassette = join(temporaryFolder(), 'c.sqlite');
    const recorder = await start(upstream.url, cassette, { mode: 'record' });
    await recorder.client.chat.completions
      .create({ model: 'm', messages: [] })
      .catch(() => undefined);
    await recorder.proxy.close();
    const { client } = await start('http://127.0.0.1:1', cassette, { mode: 'replay' });
    const error = (await client.chat.completions
      .create({ model: 'm', messages: [] })
      .catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.headers?.get('retry-after')).toBe('7');
  });

  it('auto mode replays what is recorded and records the rest', async () => {
    const upstream = await startScriptedUpstream(modelScript);
    running.push(upstream);
    const cassette = join(temporaryFolder(), 'c.sqlite');
    const first = await start(upstream.url, cassette, { mode: 'auto' });
    await first.client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Weather in Quito?' }],
    });
    await first.proxy.close();
    expect(upstream.received).toHaveLength(1);
    const second = await start(upstream.url, cassette, { mode: 'auto' });
    const again = await second.client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Weather in Quito?' }],
    });
    const fresh = await second.client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Weather in Lagos?' }],
    });
    expect(again.choices[0]?.message.content).toBe('Checking Quito (answer 1).');
    expect(fresh.choices[0]?.message.content).toBe('Checking Lagos (answer 2).');
    expect(upstream.received).toHaveLength(2);
    expect(second.proxy.stats).toMatchObject({ hits: 1, misses: 0, recorded: 1 });
  });

  it('refuses to start replay without a cassette', async () => {
    await expect(
      startTestProxy('http://127.0.0.1:1', {
        mode: 'replay',
        cassette: join(temporaryFolder(), 'missing.sqlite'),
      }),
    ).rejects.toThrow(/no such cassette to replay/);
  });
});

describe('cassette safety', () => {
  it('redacts a secret split across two network chunks', async () => {
    const secret = 'sk-live-SPLITSECRET0123456789';
    const sse = encodeSse(
      chatCompletionChunks({ text: 'x' }, seededRandom(2)).map((chunk, index) =>
        index === 1
          ? JSON.parse(
              JSON.stringify(chunk).replace('"content":"x"', `"content":"Your key is ${secret}."`),
            )
          : chunk,
      ),
    );
    const cut = sse.indexOf('SPLITSECRET') + 5;
    const upstream = await startScriptedUpstream([
      {
        kind: 'custom',
        async handle(response) {
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          response.write(sse.slice(0, cut));
          await new Promise((resolve) => setTimeout(resolve, 20));
          response.end(sse.slice(cut));
        },
      },
    ]);
    running.push(upstream);
    const cassette = join(temporaryFolder(), 'c.sqlite');
    const { client, proxy } = await start(upstream.url, cassette, {
      mode: 'record',
      redact: {
        ...defaultConfig.redact,
        headers: [],
        bodyPatterns: [{ pattern: 'sk-live-[A-Za-z0-9]+', flags: '', replacement: '[KEY]' }],
      },
    });
    const answer = await client.chat.completions
      .stream({ model: 'm', messages: [{ role: 'user', content: 'key?' }] })
      .finalChatCompletion();
    expect(answer.choices[0]?.message.content).toContain(secret);
    await proxy.close();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(cassette).includes('SPLITSECRET')).toBe(false);
    const store = new SqliteStore(cassette, { readonly: true });
    expect(store.interactions()[0]?.response?.output.text).toBe('Your key is [KEY].');
    store.close();
  });

  it('stores a stream whose secret was streamed over several events re-expressed without it', async () => {
    const upstream = await startScriptedUpstream([
      {
        kind: 'sse',
        body: encodeSse(
          chatCompletionChunks(
            { text: 'Your key is sk-live-EVENTSPLIT0123456789.' },
            seededRandom(2),
          ),
        ),
      },
    ]);
    running.push(upstream);
    const cassette = join(temporaryFolder(), 'c.sqlite');
    const proxy = await startTestProxy(upstream.url, {
      cassette,
      mode: 'record',
      redact: {
        ...defaultConfig.redact,
        headers: [],
        bodyPatterns: [{ pattern: 'sk-live-[A-Za-z0-9]+', flags: '', replacement: '[KEY]' }],
      },
    });
    running.push(proxy);
    const client = new OpenAI({ apiKey: 'sk-x', baseURL: proxy.baseUrl, maxRetries: 0 });
    await client.chat.completions
      .stream({ model: 'm', messages: [{ role: 'user', content: 'key?' }] })
      .finalChatCompletion();
    await proxy.close();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(cassette).includes('EVENTSPLIT')).toBe(false);
    const store = new SqliteStore(cassette, { readonly: true });
    expect(store.interactions().map((interaction) => interaction.response?.output.text)).toEqual([
      'Your key is [KEY].',
    ]);
    store.close();
  });

  it('stores an exchange that holds the API key the agent sent with the key replaced by a marker', async () => {
    const upstream = await startScriptedUpstream(modelScript);
    running.push(upstream);
    const cassette = join(temporaryFolder(), 'c.sqlite');
    const proxy = await startTestProxy(upstream.url, {
      cassette,
      mode: 'record',
      logLevel: 'error',
    });
    running.push(proxy);
    const key = 'proj-LEAKYKEY0123456789';
    const client = new OpenAI({ apiKey: key, baseURL: proxy.baseUrl, maxRetries: 0 });
    await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: `Weather in Paris? (my key: ${key})` }],
    });
    await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
    });
    await proxy.close();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(cassette).includes('LEAKYKEY')).toBe(false);
    const store = new SqliteStore(cassette, { readonly: true });
    expect(
      store.interactions().map((interaction) => interaction.request.messages[0]?.text),
    ).toEqual(['Weather in Paris? (my key: [REDACTED:credential])', 'Weather in Oslo?']);
    store.close();
  });
});

describe('per-request cassettes: /c/<name>[:<mode>]/', () => {
  it('records into and replays from named cassettes beside the configured one, one proxy for many tests', async () => {
    const upstream = await startScriptedUpstream(modelScript);
    running.push(upstream);
    const folder = temporaryFolder();
    const proxy = await startTestProxy(upstream.url, {
      cassette: join(folder, 'default.sqlite'),
      mode: 'record',
      cassettes: { ...defaultConfig.cassettes, allowRequestOverride: true },
    });
    running.push(proxy);
    const clientFor = (prefix: string) =>
      new OpenAI({ apiKey: 'sk-x', baseURL: `${proxy.url}${prefix}/v1`, maxRetries: 0 });
    const ask = (client: OpenAI, city: string) =>
      client.chat.completions
        .create({ model: 'm', messages: [{ role: 'user', content: `Weather in ${city}?` }] })
        .then((answer) => answer.choices[0]?.message.content);

    expect(await ask(clientFor('/c/checkout'), 'Paris')).toBe('Checking Paris (answer 1).');
    expect(await ask(clientFor('/c/search/s/case-1'), 'Rome')).toBe('Checking Rome (answer 2).');
    // Recordings are written by the store worker within a turn or two; wait until both are readable.
    const Database = (await import('better-sqlite3')).default;
    const stored = (name: string): number => {
      const db = new Database(join(folder, `${name}.sqlite`), { readonly: true });
      try {
        return db.prepare('SELECT count(*) FROM interactions').pluck().get() as number;
      } finally {
        db.close();
      }
    };
    while (stored('checkout') < 1 || stored('search') < 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    // Replay from the same proxy, without touching the upstream.
    expect(await ask(clientFor('/c/checkout:replay'), 'Paris')).toBe('Checking Paris (answer 1).');
    expect(await ask(clientFor('/c/search:replay/s/case-1'), 'Rome')).toBe(
      'Checking Rome (answer 2).',
    );
    expect(upstream.received).toHaveLength(2);
    const missing = (await clientFor('/c/nothing:replay')
      .chat.completions.create({ model: 'm', messages: [] })
      .catch((error: unknown) => error)) as InstanceType<typeof OpenAI.APIError>;
    expect(missing.status).toBe(404);
    expect(missing.message).toContain('no such cassette to replay');
    const { existsSync } = await import('node:fs');
    expect([
      existsSync(join(folder, 'checkout.sqlite')),
      existsSync(join(folder, 'search.sqlite')),
      existsSync(join(folder, 'nothing.sqlite')),
    ]).toEqual([true, true, false]);
  });

  it('rejects names that would leave the recordings folder, and unknown modes', async () => {
    const proxy = await startTestProxy('http://127.0.0.1:1', {
      cassette: join(temporaryFolder(), 'default.sqlite'),
      cassettes: { ...defaultConfig.cassettes, allowRequestOverride: true },
    });
    running.push(proxy);
    for (const [prefix, message] of [
      ['/c/..%2Fescape', 'not a valid cassette name'],
      ['/c/%2Fetc%2Fpasswd', 'not a valid cassette name'],
      ['/c/.hidden', 'not a valid cassette name'],
      ['/c/ok:rewind', 'is not a mode'],
    ] as const) {
      const response = await fetch(`${proxy.url}${prefix}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
        message,
      );
    }
  });
});

describe('match.streamAgnostic', () => {
  const agnostic = {
    ignorePaths: ['user', 'metadata', 'store', 'service_tier'],
    normalisers: ['iso-datetime', 'uuid'] as const,
    onExhausted: 'error' as const,
    streamAgnostic: true,
  };

  it('answers a streaming request from a non-streamed recording and the other way round', async () => {
    const {
      recorded: { plain, streamed },
      cassette,
    } = await record(
      async (client) => ({
        plain: await client.chat.completions.create({
          model: 'm',
          messages: [{ role: 'user', content: 'Weather in Paris?' }],
          tools,
        }),
        streamed: await client.chat.completions
          .stream({
            model: 'm',
            messages: [{ role: 'user', content: 'Weather in Tokyo?' }],
            tools,
            stream_options: { include_usage: true },
          })
          .finalChatCompletion(),
      }),
      { match: { ...agnostic, normalisers: [...agnostic.normalisers] } },
    );

    const { client, proxy } = await start('http://127.0.0.1:1', cassette, {
      mode: 'replay',
      match: { ...agnostic, normalisers: [...agnostic.normalisers] },
    });
    const plainAsStream = await client.chat.completions
      .stream({ model: 'm', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools })
      .finalChatCompletion();
    const streamAsPlain = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Weather in Tokyo?' }],
      tools,
    });
    const call = (completion: OpenAI.Chat.Completions.ChatCompletion) => {
      const first = completion.choices[0]?.message.tool_calls?.[0];
      return first?.type === 'function'
        ? [
            completion.choices[0]?.message.content,
            first.id,
            first.function.name,
            first.function.arguments,
            completion.choices[0]?.finish_reason,
          ]
        : [];
    };
    expect(call(plainAsStream)).toEqual(call(plain));
    expect(call(streamAsPlain)).toEqual(call(streamed));
    expect(streamAsPlain.usage).toEqual(streamed.usage);
    expect(proxy.stats).toMatchObject({ hits: 2, misses: 0 });
  });

  it('keeps stream part of the key when off', async () => {
    const { recorded, proxy } = await recordThenReplay((client) =>
      client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      }),
    );
    expect(recorded).toBeDefined();
    const client = new OpenAI({ apiKey: 'sk-x', baseURL: proxy.baseUrl, maxRetries: 0 });
    const error = (await client.chat.completions
      .stream({ model: 'm', messages: [{ role: 'user', content: 'Weather in Paris?' }] })
      .finalChatCompletion()
      .catch((caught: unknown) => caught)) as Error;
    expect(error.message).toContain('differs at stream');
  });
});

describe('expiry.maxAge', () => {
  async function agedCassette(): Promise<{ cassette: string; upstream: ScriptedUpstream }> {
    const { cassette, upstream } = await record((client) =>
      client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'Weather in Bern?' }],
      }),
    );
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(cassette);
    db.prepare('UPDATE interactions SET started_at = started_at - 40 * 86400000').run();
    db.close();
    return { cassette, upstream };
  }
  const ask = (client: OpenAI) =>
    client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Weather in Bern?' }],
    });

  it('warns about, errors on, or re-records a recording older than maxAge', async () => {
    const { cassette, upstream } = await agedCassette();
    const warn = await start('http://127.0.0.1:1', cassette, {
      mode: 'replay',
      expiry: { maxAge: '30d', onExpired: 'warn' },
    });
    expect((await ask(warn.client)).choices[0]?.message.content).toBe('Checking Bern (answer 1).');
    expect(warn.proxy.stats).toMatchObject({ hits: 1, expired: 1 });

    const strict = await start('http://127.0.0.1:1', cassette, {
      mode: 'replay',
      expiry: { maxAge: '30d', onExpired: 'error' },
    });
    const error = (await ask(strict.client).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toMatch(/is 40 days old, past expiry.maxAge 30d/);

    const fresh = await start(upstream.url, cassette, {
      mode: 'auto',
      expiry: { maxAge: '30d', onExpired: 'rerecord' },
    });
    expect((await ask(fresh.client)).choices[0]?.message.content).toBe('Checking Bern (answer 2).');
    expect(fresh.proxy.stats).toMatchObject({ hits: 0, recorded: 1 });

    const young = await start('http://127.0.0.1:1', cassette, {
      mode: 'replay',
      expiry: { maxAge: '60d', onExpired: 'error' },
    });
    expect((await ask(young.client)).choices[0]?.message.content).toBe('Checking Bern (answer 1).');
  });
});

describe('replay stays offline', () => {
  it('refuses routes it does not record instead of passing them to the network', async () => {
    const { cassette, upstream } = await record((client) =>
      client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'Weather in Rome?' }],
      }),
    );
    const { client, proxy } = await start(upstream.url, cassette, { mode: 'replay' });
    const error = (await client.models.list().catch((caught: unknown) => caught)) as InstanceType<
      typeof OpenAI.APIError
    >;
    expect(error.status).toBe(404);
    expect(error.message).toContain('GET /v1/models is not recorded');
    expect(upstream.received).toHaveLength(1);
    expect(proxy.stats.misses).toBe(1);
  });
});
