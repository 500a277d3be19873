import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAzure } from '@ai-sdk/azure';
import { generateText, streamText, tool } from 'ai';
import { AzureOpenAI } from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import type { Config } from '../../src/config/config.js';
import type { Interaction } from '../../src/trace/trace.js';
import { runCliAsync } from '../support/cli.js';
import { azureChatCompletion, azureChatCompletionChunks } from '../support/azure-chat-chunks.js';
import { encodeSse, type ScriptedTurn } from '../support/openai-chat-chunks.js';
import { seededRandom } from '../support/random.js';
import {
  startScriptedUpstream,
  type ReceivedRequest,
  type ScriptedResponse,
} from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

const running: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const item of running.reverse()) await item.close();
});

const apiVersion = '2024-10-21';
const deployment = 'gpt-4o-prod';
const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
/** Two calls in one turn (parallel), then a text answer once the results are in. */
const callTurn: ScriptedTurn = {
  toolCalls: [
    { id: 'call_paris1', name: 'get_weather', arguments: '{"city":"Paris"}' },
    { id: 'call_tokyo1', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
  ],
};
const textTurn: ScriptedTurn = { text: 'Paris is 12°C and Tokyo 18°C.' };

/** Azure OpenAI as it answers: the prompt filter chunk first, filter results on every choice. */
function azureModel(request: ReceivedRequest, callNumber: number): ScriptedResponse {
  const body = JSON.parse(request.body) as { stream?: boolean; messages?: { role: string }[] };
  const turn = body.messages?.some((message) => message.role === 'tool') ? textTurn : callTurn;
  return body.stream
    ? {
        kind: 'sse',
        body: encodeSse(azureChatCompletionChunks(turn, seededRandom(callNumber))),
        split: { seed: callNumber, maxPiece: 13 },
      }
    : { kind: 'json', body: azureChatCompletion(turn) };
}

function interactionsOf(cassette: string): Interaction[] {
  const store = new SqliteStore(cassette, { readonly: true });
  try {
    return store.interactions();
  } finally {
    store.close();
  }
}

async function proxyFor(
  mode: Config['mode'],
  cassette: string,
  overrides: Partial<Config> = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = await startScriptedUpstream(azureModel);
  running.push(upstream);
  // The OpenAI upstream is never used: Azure routes go to azureUpstream.
  const proxy = await startTestProxy('http://127.0.0.1:1', {
    mode,
    cassette,
    azureUpstream: mode === 'replay' ? 'http://127.0.0.1:1' : upstream.url,
    ...overrides,
  });
  running.push(proxy);
  return proxy;
}

function azureClient(endpoint: string): AzureOpenAI {
  return new AzureOpenAI({
    endpoint,
    apiVersion,
    deployment,
    apiKey: 'azure-key-0123456789abcdef',
    maxRetries: 0,
  });
}

describe("openai's AzureOpenAI through calltape", () => {
  it('records parallel tool calls streamed and not, and replays them offline with the upstream down', async () => {
    const cassette = join(temporaryFolder(), 'azure.sqlite');
    const recorder = await proxyFor('record', cassette);
    const ask = async (client: AzureOpenAI) => {
      const whole = await client.chat.completions.create({
        model: deployment,
        messages: [{ role: 'user', content: 'Weather in Paris and Tokyo?' }],
        tools: [weatherTool],
      });
      const streamed = await client.chat.completions
        .stream({
          model: deployment,
          messages: [{ role: 'user', content: 'Weather in Paris and Tokyo, streamed?' }],
          tools: [weatherTool],
        })
        .finalChatCompletion();
      return [whole, streamed].map((answer) =>
        answer.choices[0]?.message.tool_calls?.map((call) =>
          call.type === 'function' ? [call.function.name, call.function.arguments] : [],
        ),
      );
    };
    const recorded = await ask(azureClient(recorder.url));
    const expected = [
      ['get_weather', '{"city":"Paris"}'],
      ['get_weather', '{"city":"Tokyo"}'],
    ];
    expect(recorded).toEqual([expected, expected]);
    await recorder.close();

    const stored = interactionsOf(cassette);
    expect(stored.map((interaction) => interaction.path)).toEqual([
      `/openai/deployments/${deployment}/chat/completions?api-version=${apiVersion}`,
      `/openai/deployments/${deployment}/chat/completions?api-version=${apiVersion}`,
    ]);
    for (const interaction of stored) {
      expect(interaction.status).toBe('complete');
      expect(interaction.response?.output.toolCalls.map((call) => call.name)).toEqual([
        'get_weather',
        'get_weather',
      ]);
    }

    // `calltape calls` lists them, re-parsed from the stored Azure rounds.
    const listed = await runCliAsync(['calls', '--cassette', cassette, '--json']);
    expect(listed.status).toBe(0);
    expect(
      listed.stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
          const call = JSON.parse(line) as { name: string; arguments: unknown };
          return [call.name, call.arguments];
        }),
    ).toEqual([
      ['get_weather', { city: 'Paris' }],
      ['get_weather', { city: 'Tokyo' }],
      ['get_weather', { city: 'Paris' }],
      ['get_weather', { city: 'Tokyo' }],
    ]);

    // Offline: the Azure upstream is unreachable, and a newer api-version still matches.
    const replayer = await proxyFor('replay', cassette);
    const offline = new AzureOpenAI({
      endpoint: replayer.url,
      apiVersion: '2025-04-01-preview',
      deployment,
      apiKey: 'another-key',
      maxRetries: 0,
    });
    expect(await ask(offline)).toEqual(recorded);
  });

  it('answers a mocked tool inside calltape, the agent seeing a well-formed follow-up turn', async () => {
    const folder = temporaryFolder();
    writeFileSync(
      join(folder, 'weather.yaml'),
      'mocks:\n  - tool: get_weather\n    result: { celsius: 12 }\n',
    );
    const proxy = await proxyFor('record', join(folder, 'mocked.sqlite'), {
      mocks: {
        files: [join(folder, 'weather.yaml')],
        active: null,
        mode: 'intercept',
        maxHiddenRounds: 3,
        strictTools: false,
        allowTools: [],
      },
    });
    for (const stream of [false, true]) {
      const client = azureClient(proxy.url);
      const params = {
        model: deployment,
        messages: [{ role: 'user' as const, content: `Weather? (stream ${String(stream)})` }],
        tools: [weatherTool],
      };
      const answer = stream
        ? await client.chat.completions.stream(params).finalChatCompletion()
        : await client.chat.completions.create(params);
      expect(answer.choices[0]?.message.content).toBe(textTurn.text);
      expect(answer.choices[0]?.message.tool_calls ?? []).toEqual([]);
      expect(answer.choices[0]?.finish_reason).toBe('stop');
    }
  });

  it("answers a malformed body on an Azure route in OpenAI's error shape", async () => {
    const proxy = await proxyFor('record', join(temporaryFolder(), 'bad.sqlite'));
    const answer = await fetch(
      `${proxy.url}/openai/deployments/${deployment}/chat/completions?api-version=${apiVersion}`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"messages": [' },
    );
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      error: { type: 'invalid_request_error', code: 'invalid_json' },
    });
  });
});

describe('@ai-sdk/azure through calltape', () => {
  const tools = {
    get_weather: tool({
      inputSchema: z.object({ city: z.string() }),
      // One step: the SDK runs it after the answer, never asking the model again.
      execute: () => Promise.resolve('12°C'),
    }),
  };

  it('records parallel tool calls streamed and not, and replays them offline', async () => {
    const cassette = join(temporaryFolder(), 'ai-sdk-azure.sqlite');
    const recorder = await proxyFor('record', cassette);
    const ask = async (baseURL: string) => {
      const azure = createAzure({ baseURL: `${baseURL}/openai`, apiKey: 'azure-key-0123456789' });
      const whole = await generateText({
        model: azure.chat(deployment),
        prompt: 'Weather in Paris and Tokyo?',
        tools,
      });
      const streamed = streamText({
        model: azure.chat(deployment),
        prompt: 'Weather in Paris and Tokyo, streamed?',
        tools,
      });
      return [whole.toolCalls, await streamed.toolCalls].map((calls) =>
        calls.map((call) => [call.toolName, call.input]),
      );
    };
    const recorded = await ask(recorder.url);
    const expected = [
      ['get_weather', { city: 'Paris' }],
      ['get_weather', { city: 'Tokyo' }],
    ];
    expect(recorded).toEqual([expected, expected]);
    await recorder.close();
    const paths = interactionsOf(cassette).map((interaction) => interaction.path);
    expect(paths).toHaveLength(2);
    // The provider's chat model posts to {baseURL}/chat/completions with its api-version.
    for (const path of paths) expect(path).toMatch(/^\/openai\/(v1\/)?chat\/completions(\?|$)/);

    const replayer = await proxyFor('replay', cassette);
    expect(await ask(replayer.url)).toEqual(recorded);
  });
});

describe('Azure OpenAI runs scored', () => {
  it('scores a suite over a recorded Azure OpenAI run (calltape score), passing and failing on the arguments', async () => {
    const folder = temporaryFolder();
    const cassette = join(folder, 'azure.sqlite');
    const recorder = await proxyFor('record', cassette);
    // The case's session comes from the endpoint's /s/<case>/ prefix, which AzureOpenAI keeps.
    const prompt = 'Weather in Paris and Tokyo?';
    await azureClient(`${recorder.url}/s/weather`).chat.completions.create({
      model: deployment,
      messages: [{ role: 'user', content: prompt }],
      tools: [weatherTool],
    });
    await recorder.close();
    const score = async (cities: readonly string[]) => {
      const suite = join(folder, `azure-${cities.join('-')}.json`);
      writeFileSync(
        suite,
        JSON.stringify({
          name: 'azure',
          cassette,
          cases: [
            {
              test_id: 'weather',
              prompt,
              expected_calls: cities.map((city) => ({
                expected_tool: 'get_weather',
                arguments: { city },
              })),
            },
          ],
        }),
      );
      const json = join(folder, `report-${cities.join('-')}.json`);
      const scored = await runCliAsync(['score', '--suite', suite, '--json', json]);
      const report = JSON.parse(readFileSync(json, 'utf8')) as {
        cases: { test_id: string; status: string; calls: { name: string }[] }[];
      };
      return { status: scored.status, cases: report.cases };
    };
    const right = await score(['Paris', 'Tokyo']);
    expect(right.status).toBe(0);
    expect(right.cases.map((item) => [item.test_id, item.status, item.calls.length])).toEqual([
      ['weather', 'pass', 2],
    ]);
    const wrong = await score(['Paris', 'Rome']);
    expect(wrong.status).toBe(1);
    expect(wrong.cases.map((item) => item.status)).toEqual(['fail']);
  });
});
