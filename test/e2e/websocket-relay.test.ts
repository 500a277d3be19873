import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import { defaultConfig } from '../../src/config/config.js';
import { bankPolicies, openFeed, writePolicies } from '../support/shadow-bank.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';
import { startWsUpstream, type WsConnection } from '../support/ws-upstream.js';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function wsUpstream(
  answer: (message: string) => string[],
): Promise<{ url: string; received: WsConnection[] }> {
  const upstream = await startWsUpstream(answer);
  cleanups.push(() => upstream.close());
  return upstream;
}

describe('WebSocket upgrades', () => {
  it('shadow-scores the calls of the Responses WebSocket mode in passthrough', async () => {
    const upstream = await wsUpstream((message) => {
      const event = JSON.parse(message) as { model?: string };
      const call = {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_ws',
        name: 'transfer_money',
        arguments: '{"amount":25000,"currency":"USD","to":"ACCT-1"}',
        status: 'completed',
      };
      const response = {
        id: 'resp_ws',
        object: 'response',
        status: 'completed',
        model: event.model,
        output: [call],
      };
      return [
        {
          type: 'response.output_item.added',
          sequence_number: 0,
          output_index: 0,
          item: { ...call, arguments: '', status: 'in_progress' },
        },
        {
          type: 'response.function_call_arguments.delta',
          sequence_number: 1,
          item_id: 'fc_1',
          output_index: 0,
          delta: call.arguments,
        },
        { type: 'response.completed', sequence_number: 2, response },
      ].map((frame) => JSON.stringify(frame));
    });
    const folder = temporaryFolder();
    const proxy = await startTestProxy(upstream.url, {
      mode: 'passthrough',
      shadow: {
        ...defaultConfig.shadow,
        policies: writePolicies(folder, bankPolicies()),
        database: join(folder, 'shadow.sqlite'),
      },
    });
    cleanups.push(() => proxy.close());
    const feed = await openFeed(
      `${proxy.url.replace('http', 'ws')}/calltape/feed?type=call.scored`,
    );
    cleanups.push(() => feed.close());
    const client = new OpenAI({
      apiKey: 'sk-test-key-0123456789abcdef',
      baseURL: `${proxy.url}/s/ws-shadow/v1`,
      maxRetries: 0,
    });
    const ws = new ResponsesWS(client);
    const completed = new Promise<void>((resolve) =>
      ws.on('event', (event) => event.type === 'response.completed' && resolve()),
    );
    ws.send({
      type: 'response.create',
      model: 'gpt-4.1-mini',
      input: 'transfer big',
      tools: [
        {
          type: 'function',
          name: 'transfer_money',
          parameters: {
            type: 'object',
            properties: {
              amount: { type: 'number' },
              currency: { type: 'string' },
              to: { type: 'string' },
            },
          },
          strict: false,
        },
      ],
    } as never);
    await completed;
    ws.close();
    const scored = await feed.waitFor(
      (event) => event['sessionId'] === 'ws-shadow',
      'the WebSocket call scored',
    );
    expect(scored).toMatchObject({
      wire: 'openai-responses',
      model: 'gpt-4.1-mini',
      tool: 'transfer_money',
      verdict: 'fail',
      failures: [expect.objectContaining({ policy: 'transfer-limits', reason: 'out_of_range' })],
    });
  });

  it("captures the OpenAI SDK's Responses WebSocket mode, frames relayed in order, and replays it offline", async () => {
    const upstream = await wsUpstream((message) => {
      const event = JSON.parse(message) as { type: string; model?: string; input?: string };
      const call = {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_ws',
        name: 'get_weather',
        arguments: '{"city":"Oslo"}',
        status: 'completed',
      };
      const response = {
        id: 'resp_ws',
        object: 'response',
        status: 'completed',
        model: event.model,
        output: [call],
        usage: { input_tokens: 11, output_tokens: 7, total_tokens: 18 },
      };
      return [
        {
          type: 'response.created',
          sequence_number: 0,
          response: { ...response, status: 'in_progress', output: [] },
        },
        {
          type: 'response.output_item.added',
          sequence_number: 1,
          output_index: 0,
          item: { ...call, arguments: '', status: 'in_progress' },
        },
        {
          type: 'response.function_call_arguments.delta',
          sequence_number: 2,
          item_id: 'fc_1',
          output_index: 0,
          delta: '{"city":',
        },
        {
          type: 'response.function_call_arguments.delta',
          sequence_number: 3,
          item_id: 'fc_1',
          output_index: 0,
          delta: '"Oslo"}',
        },
        { type: 'response.completed', sequence_number: 4, response },
      ].map((frame) => JSON.stringify(frame));
    });
    const cassette = join(temporaryFolder(), 'ws.sqlite');
    const recorder = await startTestProxy(upstream.url, { mode: 'record', cassette });
    cleanups.push(() => recorder.close());
    const run = async (origin: string): Promise<string[]> => {
      const client = new OpenAI({
        apiKey: 'sk-test-key-0123456789abcdef',
        baseURL: `${origin}/s/ws-session/v1`,
        maxRetries: 0,
      });
      const ws = new ResponsesWS(client);
      const frames: string[] = [];
      const done = new Promise<void>((resolve) => {
        ws.on('event', (event) => {
          frames.push(JSON.stringify(event));
          if (event.type === 'response.completed' || event.type === 'error') resolve();
        });
      });
      ws.send({
        type: 'response.create',
        model: 'gpt-4.1-mini',
        input: 'Weather in Oslo?',
      } as never);
      await done;
      ws.close();
      return frames;
    };
    const live = await run(recorder.url);
    expect(live.map((frame) => (JSON.parse(frame) as { type: string }).type)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.completed',
    ]);
    expect(upstream.received[0]?.path).toBe('/v1/responses');
    expect(upstream.received[0]?.headers['authorization']).toBe(
      'Bearer sk-test-key-0123456789abcdef',
    );
    expect(upstream.received[0]?.headers['x-calltape-session']).toBeUndefined();
    await recorder.close();

    const store = new SqliteStore(cassette, { readonly: true });
    const [interaction] = store.interactions();
    store.close();
    expect(interaction).toMatchObject({
      provider: 'openai-responses',
      sessionId: 'ws-session',
      status: 'complete',
      response: {
        id: 'resp_ws',
        usage: { inputTokens: 11 },
        output: {
          toolCalls: [
            { id: 'call_ws', name: 'get_weather', argumentsRaw: '{"city":"Oslo"}', complete: true },
          ],
        },
      },
    });

    const replayer = await startTestProxy('http://127.0.0.1:1', { mode: 'replay', cassette });
    cleanups.push(() => replayer.close());
    expect(await run(replayer.url)).toEqual(live);
    expect(replayer.stats).toMatchObject({ hits: 1, misses: 0 });
  });

  it('answers mocked calls over the WebSocket mode too: the agent gets only the final turn', async () => {
    const upstream = await wsUpstream((message) => {
      const event = JSON.parse(message) as {
        input?: string | { type?: string; call_id?: string; output?: string }[];
      };
      const outputs =
        typeof event.input === 'string'
          ? []
          : (event.input ?? []).filter((item) => item.type === 'function_call_output');
      const output =
        outputs.length > 0
          ? [
              {
                type: 'message',
                id: 'msg_1',
                role: 'assistant',
                status: 'completed',
                content: [
                  {
                    type: 'output_text',
                    text: `Results: ${outputs.map((item) => `${item.call_id}=${item.output}`).join('; ')}`,
                    annotations: [],
                  },
                ],
              },
            ]
          : [
              {
                type: 'function_call',
                id: 'fc_1',
                call_id: 'call_w',
                name: 'get_weather',
                arguments: '{"city":"Oslo"}',
                status: 'completed',
              },
            ];
      const response = {
        id: `resp_${outputs.length}`,
        object: 'response',
        status: 'completed',
        model: 'm',
        output,
      };
      return [
        JSON.stringify({
          type: 'response.created',
          sequence_number: 0,
          response: { ...response, status: 'in_progress', output: [] },
        }),
        JSON.stringify({ type: 'response.completed', sequence_number: 1, response }),
      ];
    });
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'm.yaml'), 'mocks: [{ tool: get_weather, result: sunny }]');
    const proxy = await startTestProxy(upstream.url, {
      mocks: {
        files: [join(folder, 'm.yaml')],
        active: null,
        mode: 'intercept',
        maxHiddenRounds: 8,
        strictTools: false,
        allowTools: [],
      },
    });
    cleanups.push(() => proxy.close());
    const socket = new WebSocket(`${proxy.url.replace('http', 'ws')}/v1/responses`, {
      headers: { authorization: 'Bearer sk-test-key-0123456789abcdef' },
    });
    cleanups.push(() => socket.terminate());
    await once(socket, 'open');
    const frames: {
      type: string;
      response?: { output: { type: string; content?: { text: string }[] }[] };
    }[] = [];
    const completed = new Promise<void>((resolve) =>
      socket.on('message', (data) => {
        const frame = JSON.parse(data.toString()) as (typeof frames)[number];
        frames.push(frame);
        if (frame.type === 'response.completed') resolve();
      }),
    );
    socket.send(JSON.stringify({ type: 'response.create', model: 'm', input: 'Weather in Oslo?' }));
    await completed;
    expect(frames.map((frame) => frame.type)).toEqual(['response.created', 'response.completed']);
    expect(frames[1]?.response?.output[0]?.content?.[0]?.text).toBe('Results: call_w=sunny');
    // The model saw its call and the mock's answer in a hidden round the agent never saw.
    expect(
      upstream.received[0]?.messages.map(
        (message) => (JSON.parse(message) as { input: unknown }).input,
      ),
    ).toEqual([
      'Weather in Oslo?',
      [
        { role: 'user', content: 'Weather in Oslo?' },
        {
          type: 'function_call',
          call_id: 'call_w',
          name: 'get_weather',
          arguments: '{"city":"Oslo"}',
        },
        { type: 'function_call_output', call_id: 'call_w', output: 'sunny' },
      ],
    ]);
    socket.close();
    await proxy.close();

    // Both rounds were recorded (the hidden one marked): replayed offline, the agent gets the same frames.
    const replayer = await startTestProxy('http://127.0.0.1:1', {
      mode: 'replay',
      cassette: proxy.config.cassette,
      mocks: proxy.config.mocks,
    });
    cleanups.push(() => replayer.close());
    const again = new WebSocket(`${replayer.url.replace('http', 'ws')}/v1/responses`);
    cleanups.push(() => again.terminate());
    await once(again, 'open');
    const replayed: string[] = [];
    const done = new Promise<void>((resolve) =>
      again.on('message', (data) => replayed.push(data.toString()) === 2 && resolve()),
    );
    again.send(JSON.stringify({ type: 'response.create', model: 'm', input: 'Weather in Oslo?' }));
    await done;
    expect(replayed.map((frame) => JSON.parse(frame) as unknown)).toEqual(frames);
    expect(replayer.stats).toMatchObject({ hits: 2, misses: 0 });
  });

  // Regression (issue 16): the failure was only logged; the agent hung, and with mocks the round went to the network in replay.
  it.each([false, true])(
    'issue-16: a cassette that cannot be opened answers with an error frame and a close, never the network (mocks: %s)',
    async (mocked) => {
      const upstream = await wsUpstream(() => []);
      const folder = temporaryFolder();
      writeFileSync(join(folder, 'm.yaml'), 'mocks: [{ tool: get_weather, result: sunny }]');
      const mocks = {
        files: mocked ? [join(folder, 'm.yaml')] : [],
        active: null,
        mode: 'intercept' as const,
        maxHiddenRounds: 8,
        strictTools: false,
        allowTools: [],
      };
      const cassette = join(folder, 'main.sqlite');
      await (await startTestProxy(upstream.url, { mode: 'record', cassette })).close();
      const proxy = await startTestProxy(upstream.url, {
        mode: 'replay',
        cassette,
        mocks,
        cassettes: { ...defaultConfig.cassettes, allowRequestOverride: true },
      });
      cleanups.push(() => proxy.close());
      const ws = new ResponsesWS(
        new OpenAI({
          apiKey: 'sk-test-key-0123456789abcdef',
          baseURL: `${proxy.url}/c/missing/v1`,
          maxRetries: 0,
        }),
      );
      const failed = new Promise<Error>((resolve) => ws.on('error', resolve));
      const closed = new Promise<void>((resolve) => ws.socket.on('close', () => resolve()));
      ws.send({ type: 'response.create', model: 'm', input: 'Weather in Oslo?' } as never);
      const error = await failed;
      await closed;
      expect(error.message).toContain('no such cassette to replay');
      expect(JSON.parse(error.message)).toMatchObject({
        type: 'error',
        status: 404,
        error: { type: 'cassette_miss', code: 'cassette_miss' },
      });
      expect(upstream.received).toEqual([]);
    },
  );

  it('relays any other upgrade under /v1/, and refuses upgrades replay cannot answer', async () => {
    const upstream = await wsUpstream((message) => [`echo:${message}`]);
    const proxy = await startTestProxy(upstream.url, { mode: 'record' });
    cleanups.push(() => proxy.close());
    const socket = new WebSocket(`${proxy.url.replace('http', 'ws')}/v1/realtime?model=x`);
    cleanups.push(() => socket.terminate());
    await once(socket, 'open');
    const replies: string[] = [];
    const three = new Promise<void>((resolve) =>
      socket.on('message', (data) => replies.push(data.toString()) === 3 && resolve()),
    );
    for (const text of ['a', 'b', 'c']) socket.send(text);
    await three;
    expect(replies).toEqual(['echo:a', 'echo:b', 'echo:c']);
    expect(upstream.received[0]?.path).toBe('/v1/realtime?model=x');

    const replayer = await startTestProxy('http://127.0.0.1:1', {
      mode: 'replay',
      cassette: proxy.config.cassette,
    });
    cleanups.push(() => replayer.close());
    const refused = new WebSocket(`${replayer.url.replace('http', 'ws')}/v1/realtime`);
    refused.on('error', () => undefined);
    const [, response] = (await once(refused, 'unexpected-response')) as [
      unknown,
      { statusCode: number },
    ];
    expect(response.statusCode).toBe(404);
    refused.terminate();
  });
});
