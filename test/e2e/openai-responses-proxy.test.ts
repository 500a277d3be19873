import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ResponseStreamParams } from 'openai/lib/responses/ResponseStream';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import type { Config } from '../../src/config/config.js';
import { buildTrajectories } from '../../src/trace/build-trajectories.js';
import { responsesEvents, responsesObject, type ScriptedResponsesTurn } from '../support/openai-responses-events.js';
import { seededRandom } from '../support/random.js';
import { startScriptedUpstream, type ReceivedRequest, type ScriptedResponse, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

type TestProxy = Awaited<ReturnType<typeof startTestProxy>>;
const running: (TestProxy | ScriptedUpstream)[] = [];
afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
});

/** A Responses model: calls the weather tool for two cities, then reports the outputs it was given. */
function responsesModel(request: ReceivedRequest, callNumber: number): ScriptedResponse {
  const body = JSON.parse(request.body) as { stream?: boolean; input: string | { type?: string; call_id?: string; output?: string }[] };
  const outputs = typeof body.input === 'string' ? [] : body.input.filter((item) => item.type === 'function_call_output');
  const turn: ScriptedResponsesTurn =
    outputs.length > 0
      ? { id: `resp_answer_${callNumber}`, text: `Results: ${outputs.map((item) => `${item.call_id}=${item.output}`).join('; ')}` }
      : { id: 'resp_calls', calls: [{ callId: 'call_paris', name: 'get_weather', arguments: '{"city":"Paris"}' }, { callId: 'call_tokyo', name: 'get_weather', arguments: '{"city":"Tokyo"}' }] };
  if (!body.stream) return { kind: 'json', body: responsesObject(turn) };
  return { kind: 'sse', body: responsesEvents(turn, seededRandom(callNumber + 3)), split: { seed: callNumber, maxPiece: 13 }, headers: { 'content-type': 'text/event-stream; charset=utf-8' } };
}

const tools: OpenAI.Responses.FunctionTool[] = [{ type: 'function', name: 'get_weather', description: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }, strict: true }];

async function setup(overrides: Partial<Config>, upstreamUrl?: string): Promise<{ client: OpenAI; proxy: TestProxy; upstream: ScriptedUpstream | undefined }> {
  const upstream = upstreamUrl ? undefined : await startScriptedUpstream(responsesModel);
  if (upstream) running.push(upstream);
  const proxy = await startTestProxy(upstreamUrl ?? (upstream as ScriptedUpstream).url, overrides);
  running.push(proxy);
  return { client: new OpenAI({ apiKey: 'sk-test-key-0123456789abcdef', baseURL: proxy.baseUrl, maxRetries: 0 }), proxy, upstream };
}

/** Two turns: the calls, then the outputs sent back on `previous_response_id` (no history resent). */
async function conversation(client: OpenAI, stream: boolean): Promise<[OpenAI.Responses.Response, OpenAI.Responses.Response]> {
  const create = (body: OpenAI.Responses.ResponseCreateParamsNonStreaming): Promise<OpenAI.Responses.Response> => (stream ? client.responses.stream(body as ResponseStreamParams).finalResponse() : client.responses.create(body));
  const first = await create({ model: 'gpt-4.1-mini', input: 'Weather in Paris and Tokyo?', tools });
  const calls = first.output.filter((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call');
  const second = await create({ model: 'gpt-4.1-mini', previous_response_id: first.id, tools, input: calls.map((call) => ({ type: 'function_call_output' as const, call_id: call.call_id, output: call.call_id === 'call_paris' ? '12°C' : '18°C' })) });
  return [first, second];
}

describe.each([false, true])('OpenAI Responses through the proxy (stream: %s)', (stream) => {
  it('captures function calls, chains previous_response_id into one session with the outputs as results, and replays offline', async () => {
    const cassette = join(temporaryFolder(), 'responses.sqlite');
    const { client, proxy } = await setup({ cassette, mode: 'record' });
    const [first, second] = await conversation(client, stream);
    expect(first.output.map((item) => (item.type === 'function_call' ? [item.call_id, item.arguments] : item.type))).toEqual([
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
    expect(interactions[0]?.request.tools.map((tool) => [tool.name, tool.strict])).toEqual([['get_weather', true]]);
    expect(interactions[0]?.response?.usage).toMatchObject({ inputTokens: 30, outputTokens: 14, totalTokens: 44 });
    // No history is resent: previous_response_id alone puts the second turn in the first's session.
    expect(new Set(interactions.map((interaction) => interaction.sessionId)).size).toBe(1);
    const [run] = buildTrajectories(interactions);
    expect(run?.calls.map((call) => [call.id, call.name, call.argumentsRaw, call.result?.text])).toEqual([
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
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Weather in Paris and Tokyo?' }];
    const first = await client.responses.create({ model: 'gpt-4.1-mini', input, tools, store: false });
    const calls = first.output.filter((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call');
    const second = await client.responses.create({ model: 'gpt-4.1-mini', tools, store: false, input: [...input, ...(first.output as OpenAI.Responses.ResponseInput), ...calls.map((call) => ({ type: 'function_call_output' as const, call_id: call.call_id, output: 'mild' }))] });
    expect(second.output_text).toBe('Results: call_paris=mild; call_tokyo=mild');
    await proxy.close();
    const store = new SqliteStore(cassette, { readonly: true });
    const interactions = store.interactions();
    store.close();
    expect(new Set(interactions.map((interaction) => interaction.sessionId)).size).toBe(1);
    expect(buildTrajectories(interactions)[0]?.calls.map((call) => call.result?.text)).toEqual(['mild', 'mild']);
  });
});

describe('OpenAI Responses: edges', () => {
  it('records a stream cut before its terminal event as truncated, with the calls incomplete', async () => {
    const upstream = await startScriptedUpstream([{ kind: 'sse', body: responsesEvents({ calls: [{ callId: 'call_cut', name: 'get_weather', arguments: '{"city":"Lyon"}' }], ending: 'cut' }, seededRandom(1)), headers: { 'content-type': 'text/event-stream' } }]);
    running.push(upstream);
    const cassette = join(temporaryFolder(), 'cut.sqlite');
    const proxy = await startTestProxy(upstream.url, { cassette, mode: 'record' });
    running.push(proxy);
    const client = new OpenAI({ apiKey: 'sk-test-key-0123456789abcdef', baseURL: proxy.baseUrl, maxRetries: 0 });
    await client.responses.stream({ model: 'm', input: 'hi', tools }).finalResponse().catch(() => undefined);
    await proxy.close();
    const store = new SqliteStore(cassette, { readonly: true });
    expect(store.interactions()[0]).toMatchObject({ status: 'truncated', response: { output: { toolCalls: [{ id: 'call_cut', argumentsRaw: '{"city":"Lyon"}', complete: false }] } } });
    store.close();
  });

  it('refuses to pass a request through when mock tools are in force (they would run for real)', async () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'm.yaml'), 'mocks: [{ tool: get_weather, result: sunny }]');
    const { client, upstream } = await setup({ mocks: { files: [join(folder, 'm.yaml')], active: null, mode: 'intercept', maxHiddenRounds: 8, strictTools: false, allowTools: [] } });
    const refused = await client.responses.create({ model: 'm', input: 'Weather in Paris?', tools }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as Error).message).toContain('mock tools are not answered on openai-responses yet');
    expect(upstream?.received).toHaveLength(0);
  });
});
