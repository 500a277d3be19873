import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ResponseStreamParams } from 'openai/lib/responses/ResponseStream';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import type { Config } from '../../src/config/config.js';
import { buildTrajectories } from '../../src/trace/build-trajectories.js';
import {
  responsesEvents,
  responsesObject,
  type ScriptedResponsesTurn,
} from '../support/openai-responses-events.js';
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

/** A Responses model: calls the weather tool for two cities, then reports the outputs it was given. */
function responsesModel(request: ReceivedRequest, callNumber: number): ScriptedResponse {
  const body = JSON.parse(request.body) as {
    stream?: boolean;
    input: string | { type?: string; call_id?: string; output?: string }[];
  };
  const outputs =
    typeof body.input === 'string'
      ? []
      : body.input.filter((item) => item.type === 'function_call_output');
  const turn: ScriptedResponsesTurn =
    outputs.length > 0
      ? {
          id: `resp_answer_${callNumber}`,
          text: `Results: ${outputs.map((item) => `${item.call_id}=${item.output}`).join('; ')}`,
        }
      : {
          id: 'resp_calls',
          calls: [
            { callId: 'call_paris', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { callId: 'call_tokyo', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
          ],
        };
  if (!body.stream) return { kind: 'json', body: responsesObject(turn) };
  return {
    kind: 'sse',
    body: responsesEvents(turn, seededRandom(callNumber + 3)),
    split: { seed: callNumber, maxPiece: 13 },
    headers: { 'content-type': 'text/event-stream; charset=utf-8' },
  };
}

const tools: OpenAI.Responses.FunctionTool[] = [
  {
    type: 'function',
    name: 'get_weather',
    description: 'weather',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
    strict: true,
  },
];

async function setup(
  overrides: Partial<Config>,
  upstreamUrl?: string,
): Promise<{ client: OpenAI; proxy: TestProxy; upstream: ScriptedUpstream | undefined }> {
  const upstream = upstreamUrl ? undefined : await startScriptedUpstream(responsesModel);
  if (upstream) running.push(upstream);
  const proxy = await startTestProxy(upstreamUrl ?? (upstream as ScriptedUpstream).url, overrides);
  running.push(proxy);
  return {
    client: new OpenAI({
      apiKey: 'sk-test-key-0123456789abcdef',
      baseURL: proxy.baseUrl,
      maxRetries: 0,
    }),
    proxy,
    upstream,
  };
}

/** Two turns: the calls, then the outputs sent back on `previous_response_id` (no history resent). */
async function conversation(
  client: OpenAI,
  stream: boolean,
): Promise<[OpenAI.Responses.Response, OpenAI.Responses.Response]> {
  const create = (
    body: OpenAI.Responses.ResponseCreateParamsNonStreaming,
  ): Promise<OpenAI.Responses.Response> =>
    stream
      ? client.responses.stream(body as ResponseStreamParams).finalResponse()
      : client.responses.create(body);
  const first = await create({
    model: 'gpt-4.1-mini',
    input: 'Weather in Paris and Tokyo?',
    tools,
  });
  const calls = first.output.filter(
    (item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call',
  );
  const second = await create({
    model: 'gpt-4.1-mini',
    previous_response_id: first.id,
    tools,
    input: calls.map((call) => ({
      type: 'function_call_output' as const,
      call_id: call.call_id,
      output: call.call_id === 'call_paris' ? '12°C' : '18°C',
    })),
  });
  return [first, second];
}

describe.each([false, true])('OpenAI Responses through the proxy (stream: %s)', (stream) => {
  it('captures function calls, chains previous_response_id into one session with the outputs as results, and replays offline', async () => {
    const cassette = join(temporaryFolder(), 'responses.sqlite');
    const { client, proxy } = await setup({ cassette, mode: 'record' });
    const [first, second] = await conversation(client, stream);
    expect(
      first.output.map((item) =>
        item.type === 'function_call' ? [item.call_id, item.arguments] : item.type,
      ),
    ).toEqual([
      ['call_paris', '{"city":"Paris"}'],
      ['call_tokyo', '{"city":"Tokyo"}'],
    ]);
    expect(second.output_text).toBe('Results: call_paris=12°C; call_tokyo=18°C');
    await proxy.close();

    const store = new SqliteStore(cassette, { readonly: true });
    const interactions = store.interactions();
    store.close();
    expect(interactions.map((interaction) => [interaction.provider, interaction.status])).toEqual([
      ['openai-responses', 'complete'],
      ['openai-responses', 'complete'],
    ]);
    expect(interactions[0]?.request.tools.map((tool) => [tool.name, tool.strict])).toEqual([
      ['get_weather', true],
    ]);
    expect(interactions[0]?.response?.usage).toMatchObject({
      inputTokens: 30,
      outputTokens: 14,
      totalTokens: 44,
    });
    // No history is resent: previous_response_id alone puts the second turn in the first's session.
    expect(new Set(interactions.map((interaction) => interaction.sessionId)).size).toBe(1);
    const [run] = buildTrajectories(interactions);
    expect(
      run?.calls.map((call) => [call.id, call.name, call.argumentsRaw, call.result?.text]),
    ).toEqual([
      ['call_paris', 'get_weather', '{"city":"Paris"}', '12°C'],
      ['call_tokyo', 'get_weather', '{"city":"Tokyo"}', '18°C'],
    ]);
    expect(run?.finalText).toBe('Results: call_paris=12°C; call_tokyo=18°C');

    const replayer = await setup({ cassette, mode: 'replay' }, 'http://127.0.0.1:1');
    const replayed = await conversation(replayer.client, stream);
    expect(replayed).toEqual([first, second]);
  });
});

describe('OpenAI Responses: stateless agents', () => {
  it('chains a request that resends the whole history (items echoed back) into one session', async () => {
    const cassette = join(temporaryFolder(), 'stateless.sqlite');
    const { client, proxy } = await setup({ cassette, mode: 'record' });
    const input: OpenAI.Responses.ResponseInput = [
      { role: 'user', content: 'Weather in Paris and Tokyo?' },
    ];
    const first = await client.responses.create({
      model: 'gpt-4.1-mini',
      input,
      tools,
      store: false,
    });
    const calls = first.output.filter(
      (item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call',
    );
    const second = await client.responses.create({
      model: 'gpt-4.1-mini',
      tools,
      store: false,
      input: [
        ...input,
        ...(first.output as OpenAI.Responses.ResponseInput),
        ...calls.map((call) => ({
          type: 'function_call_output' as const,
          call_id: call.call_id,
          output: 'mild',
        })),
      ],
    });
    expect(second.output_text).toBe('Results: call_paris=mild; call_tokyo=mild');
    await proxy.close();
    const store = new SqliteStore(cassette, { readonly: true });
    const interactions = store.interactions();
    store.close();
    expect(new Set(interactions.map((interaction) => interaction.sessionId)).size).toBe(1);
    expect(buildTrajectories(interactions)[0]?.calls.map((call) => call.result?.text)).toEqual([
      'mild',
      'mild',
    ]);
  });
});

describe('OpenAI Responses: edges', () => {
  it('records a stream cut before its terminal event as truncated, with the calls incomplete', async () => {
    const upstream = await startScriptedUpstream([
      {
        kind: 'sse',
        body: responsesEvents(
          {
            calls: [{ callId: 'call_cut', name: 'get_weather', arguments: '{"city":"Lyon"}' }],
            ending: 'cut',
          },
          seededRandom(1),
        ),
        headers: { 'content-type': 'text/event-stream' },
      },
    ]);
    running.push(upstream);
    const cassette = join(temporaryFolder(), 'cut.sqlite');
    const proxy = await startTestProxy(upstream.url, { cassette, mode: 'record' });
    running.push(proxy);
    const client = new OpenAI({
      apiKey: 'sk-test-key-0123456789abcdef',
      baseURL: proxy.baseUrl,
      maxRetries: 0,
    });
    await client.responses
      .stream({ model: 'm', input: 'hi', tools })
      .finalResponse()
      .catch(() => undefined);
    await proxy.close();
    const store = new SqliteStore(cassette, { readonly: true });
    expect(store.interactions()[0]).toMatchObject({
      status: 'truncated',
      response: {
        output: {
          toolCalls: [{ id: 'call_cut', argumentsRaw: '{"city":"Lyon"}', complete: false }],
        },
      },
    });
    store.close();
  });
});

/** A banking model on the Responses wire: balance (one call), balance and email (two), then reports the outputs it sees. */
function bankModel(request: ReceivedRequest, callNumber: number): ScriptedResponse {
  const body = JSON.parse(request.body) as {
    stream?: boolean;
    previous_response_id?: string;
    input:
      | string
      | { type?: string; role?: string; content?: string; call_id?: string; output?: string }[];
  };
  const items =
    typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
  const outputs = items.filter((item) => item.type === 'function_call_output');
  const text = items.find((item) => item.role === 'user')?.content ?? '';
  const turn: ScriptedResponsesTurn =
    outputs.length > 0
      ? {
          id: `resp_${callNumber}`,
          text: `Results: ${outputs.map((item) => `${item.call_id}=${item.output}`).join('; ')}`,
        }
      : /balance and email/.test(text)
        ? {
            id: `resp_${callNumber}`,
            calls: [
              { callId: 'call_bal', name: 'get_balance', arguments: '{}' },
              { callId: 'call_mail', name: 'send_email', arguments: '{"to":"ann@example.com"}' },
            ],
          }
        : {
            id: `resp_${callNumber}`,
            calls: [{ callId: 'call_bal', name: 'get_balance', arguments: '{}' }],
          };
  if (!body.stream) return { kind: 'json', body: responsesObject(turn) };
  return {
    kind: 'sse',
    body: responsesEvents(turn, seededRandom(callNumber + 5)),
    headers: { 'content-type': 'text/event-stream; charset=utf-8' },
  };
}

describe.each([false, true])('OpenAI Responses: mock tools (stream: %s)', (stream) => {
  async function bank(): Promise<{ client: OpenAI; upstream: ScriptedUpstream }> {
    const folder = temporaryFolder();
    writeFileSync(
      join(folder, 'bank.yaml'),
      'mocks: [{ tool: get_balance, result: { balance: 120 } }]',
    );
    const upstream = await startScriptedUpstream(bankModel);
    running.push(upstream);
    const proxy = await startTestProxy(upstream.url, {
      mocks: {
        files: [join(folder, 'bank.yaml')],
        active: null,
        mode: 'intercept',
        maxHiddenRounds: 4,
        strictTools: false,
        allowTools: [],
      },
    });
    running.push(proxy);
    return {
      client: new OpenAI({
        apiKey: 'sk-test-key-0123456789abcdef',
        baseURL: proxy.baseUrl,
        maxRetries: 0,
      }),
      upstream,
    };
  }
  const create = (
    client: OpenAI,
    body: OpenAI.Responses.ResponseCreateParamsNonStreaming,
  ): Promise<OpenAI.Responses.Response> =>
    stream
      ? client.responses.stream(body as ResponseStreamParams).finalResponse()
      : client.responses.create(body);

  it('answers a mocked call in a hidden round (the history resent as items)', async () => {
    const { client, upstream } = await bank();
    const answer = await create(client, {
      model: 'm',
      input: 'What is my balance?',
      tools,
      store: false,
    });
    expect(answer.output.map((item) => item.type)).toEqual(['message']);
    expect(answer.output_text).toBe('Results: call_bal={"balance":120}');
    const hidden = JSON.parse(upstream.received[1]?.body ?? '{}') as { input: { type?: string }[] };
    expect(hidden.input.map((item) => item.type ?? 'message')).toEqual([
      'message',
      'function_call',
      'function_call_output',
    ]);
  });

  // Regression (issue 16): with `instructions`, the agent's next request went upstream without the hidden round spliced in.
  it('issue-16: splices the hidden mocked round back into the next request when the agent has instructions', async () => {
    const { client, upstream } = await bank();
    const history: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'What is my balance?' },
    ];
    const answer = await create(client, {
      model: 'm',
      instructions: 'You are a terse bank assistant.',
      input: history,
      tools,
      store: false,
    });
    expect(answer.output_text).toBe('Results: call_bal={"balance":120}');
    history.push(
      { role: 'assistant', content: answer.output_text },
      { role: 'user', content: 'Thanks' },
    );
    await create(client, {
      model: 'm',
      instructions: 'You are a terse bank assistant.',
      input: history,
      tools,
      store: false,
    });
    const sent = JSON.parse(upstream.received.at(-1)?.body ?? '{}') as {
      instructions?: string;
      input: { type?: string; role?: string }[];
    };
    expect(sent.instructions).toBe('You are a terse bank assistant.');
    expect(sent.input.map((item) => item.type ?? item.role)).toEqual([
      'user',
      'function_call',
      'function_call_output',
      'message',
      'user',
    ]);
  });

  it('hides the mocked call of a mixed turn and adds its output when the agent continues by previous_response_id', async () => {
    const { client, upstream } = await bank();
    const turn = await create(client, {
      model: 'm',
      input: 'Check my balance and email Ann',
      tools,
    });
    expect(
      turn.output.map((item) => (item.type === 'function_call' ? item.name : item.type)),
    ).toEqual(['send_email']);
    const final = await create(client, {
      model: 'm',
      previous_response_id: turn.id,
      tools,
      input: [{ type: 'function_call_output', call_id: 'call_mail', output: 'sent' }],
    });
    expect(final.output_text).toBe('Results: call_bal={"balance":120}; call_mail=sent');
    expect(JSON.parse(upstream.received.at(-1)?.body ?? '{}')).toMatchObject({
      previous_response_id: turn.id,
    });

    // A fully mocked turn continued by id: the hidden round continues the hidden response by id, sending only the outputs.
    const next = await create(client, {
      model: 'm',
      previous_response_id: final.id,
      tools,
      input: [{ role: 'user', content: 'And my balance now?' }],
    });
    expect(next.output_text).toBe('Results: call_bal={"balance":120}');
    const [asked, hiddenRound] = upstream.received
      .slice(-2)
      .map(
        (request) =>
          JSON.parse(request.body) as { previous_response_id?: string; input: { type?: string }[] },
      );
    expect(asked?.previous_response_id).toBe(final.id);
    expect(hiddenRound).toMatchObject({
      previous_response_id: expect.stringMatching(/^resp_/),
      input: [{ type: 'function_call_output', call_id: 'call_bal' }],
    });
    expect(hiddenRound?.previous_response_id).not.toBe(final.id);
  });
});
