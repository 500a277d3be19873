import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { runCliAsync } from '../support/cli.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';
import { readConversation, weatherModel, type Conversation } from './weather-model.js';

/** One conversation an agent holds: its user turns in order, with the history carried between them. */
export interface Conversing {
  /** Resolves with the agent's final text after each user turn. */
  converse(turns: readonly string[], options: { readonly system?: string }): Promise<string[]>;
}

/** A framework under test: how to build its weather agent, unmodified, from the environment. */
export interface FrameworkCase {
  readonly name: string;
  /** The wire its model speaks (what the scripted upstream must see). */
  readonly wire: Conversation['wire'];
  /**
   * Builds the agent with the framework's own `get_weather` tool calling `getWeather`. Runs after
   * OPENAI_BASE_URL / ANTHROPIC_BASE_URL (and GOOGLE_GEMINI_BASE_URL / GOOGLE_VERTEX_BASE_URL)
   * point at the proxy exactly as `calltape record --` sets them.
   */
  makeAgent(getWeather: (city: string) => string): Conversing;
}

const mockFile = `
mocks:
  - tool: get_weather
    result: { forecast: "Rain in {{args.city}}" }
`;

/** A call as `calltape calls --json` prints it, reduced to what the tests compare. */
interface ListedCall {
  readonly interaction: string;
  readonly name: string;
  readonly arguments: unknown;
  readonly index: number;
  readonly mocked: boolean;
}

/**
 * Runs the same record → `calltape calls` → replay → mock → replay-of-mocks story over each
 * framework case, against one scripted upstream per file. The replays run against an upstream
 * that is gone (a closed port), so a request that missed the cassette would fail.
 */
export function describeFrameworks(title: string, cases: readonly FrameworkCase[]): void {
  describe(title, () => {
    let upstream: ScriptedUpstream;
    let goneUpstream: string;
    let mocks: string;
    const savedEnvironment = { ...process.env };
    const realFetch = globalThis.fetch;
    /** Requests a framework tried to send past the proxy: an offline CI run would hang or fail on them. */
    const offline: string[] = [];
    beforeAll(async () => {
      globalThis.fetch = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : input);
        if (url.hostname === '127.0.0.1') return realFetch(input, init);
        offline.push(url.href);
        return Promise.reject(new TypeError(`offline test: refused a request to ${url.href}`));
      };
      upstream = await startScriptedUpstream(weatherModel);
      goneUpstream = await closedPortUrl();
      mocks = join(temporaryFolder(), 'weather-mocks.yaml');
      writeFileSync(mocks, mockFile);
    });
    afterEach(() => {
      expect(offline.splice(0)).toEqual([]);
    });
    afterAll(async () => {
      globalThis.fetch = realFetch;
      await upstream.close();
      process.env = savedEnvironment;
    });

    describe.each(cases)('$name', (framework) => {
      const toolRuns: string[] = [];
      const getWeather = (city: string): string => {
        toolRuns.push(city);
        return `Sunny in ${city}`;
      };
      const recorded = join(temporaryFolder(), 'recorded.sqlite');
      const mocked = join(temporaryFolder(), 'mocked.sqlite');

      /** Runs `conversation` against a proxy built from `overrides`, with the environment pointing at it. */
      async function throughProxy<T>(
        overrides: Partial<Config>,
        conversation: (agent: Conversing) => Promise<T>,
      ): Promise<{ result: T; misses: number; upstreamRequests: readonly Conversation[] }> {
        const before = upstream.received.length;
        const target = overrides.upstream ?? upstream.url;
        const proxy = await startTestProxy(target, {
          anthropicUpstream: target,
          geminiUpstream: target,
          vertexUpstream: target,
          ...overrides,
        });
        try {
          // A key per proxy, because some frameworks (Mastra) keep one client per model and key for the whole process.
          Object.assign(process.env, {
            OPENAI_BASE_URL: proxy.baseUrl,
            ANTHROPIC_BASE_URL: proxy.url,
            OPENAI_API_KEY: `sk-test-framework-${proxy.port}`,
            ANTHROPIC_API_KEY: `sk-ant-test-framework-${proxy.port}`,
            // @google/genai reads these two itself; the other Gemini clients are given them as their base URL.
            GOOGLE_GEMINI_BASE_URL: proxy.url,
            GOOGLE_VERTEX_BASE_URL: proxy.url,
            GEMINI_API_KEY: `AIzaSy-test-framework-${proxy.port}`,
          });
          const result = await conversation(framework.makeAgent(getWeather));
          const upstreamRequests = upstream.received
            .slice(before)
            .map(
              (request) =>
                readConversation(request) ??
                expect.fail(`unexpected upstream request ${request.method} ${request.url}`),
            );
          return { result, misses: proxy.stats.misses, upstreamRequests };
        } finally {
          await proxy.close();
        }
      }
      const mocksConfig = (): Config['mocks'] => ({
        files: [mocks],
        active: null,
        mode: 'intercept',
        maxHiddenRounds: 3,
        strictTools: false,
        allowTools: [],
      });
      const single = ['What is the weather in Paris?'];
      const parallel = ['What is the weather in Paris and Tokyo?'];

      it('records a tool call and a parallel turn; calltape calls lists exactly those calls', async () => {
        const { result, upstreamRequests } = await throughProxy(
          { mode: 'record', cassette: recorded },
          async (agent) => [await agent.converse(single, {}), await agent.converse(parallel, {})],
        );
        expect(result).toEqual([
          ['Forecast: Sunny in Paris'],
          ['Forecast: Sunny in Paris | Sunny in Tokyo'],
        ]);
        expect(toolRuns.splice(0)).toEqual(['Paris', 'Paris', 'Tokyo']);
        expect(upstreamRequests.map((request) => request.wire)).toEqual([
          framework.wire,
          framework.wire,
          framework.wire,
          framework.wire,
        ]);
        const calls = await listCalls(recorded);
        expect(
          calls.map(({ name, arguments: args, index, mocked: isMocked }) => [
            name,
            args,
            index,
            isMocked,
          ]),
        ).toEqual([
          ['get_weather', { city: 'Paris' }, 0, false],
          ['get_weather', { city: 'Paris' }, 0, false],
          ['get_weather', { city: 'Tokyo' }, 1, false],
        ]);
        // The parallel calls come from one model turn.
        expect(new Set(calls.map((call) => call.interaction)).size).toBe(2);
      });

      it('replays the recorded runs with the upstream gone', async () => {
        const { result, misses, upstreamRequests } = await throughProxy(
          { mode: 'replay', cassette: recorded, upstream: goneUpstream },
          async (agent) => [await agent.converse(single, {}), await agent.converse(parallel, {})],
        );
        expect(result).toEqual([
          ['Forecast: Sunny in Paris'],
          ['Forecast: Sunny in Paris | Sunny in Tokyo'],
        ]);
        expect([misses, upstreamRequests.length]).toEqual([0, 0]);
        expect(toolRuns.splice(0)).toEqual(['Paris', 'Paris', 'Tokyo']);
      });

      const system = 'You are a terse weather assistant.';
      const mockedConversation = ['What is the weather in Paris?', 'Thanks!'];
      it('answers get_weather inside the proxy with a system prompt: the agent tool never runs, the next turn carries the hidden round', async () => {
        const { result, upstreamRequests } = await throughProxy(
          { mode: 'record', cassette: mocked, mocks: mocksConfig() },
          (agent) => agent.converse(mockedConversation, { system }),
        );
        expect(result).toEqual(['Forecast: {"forecast":"Rain in Paris"}', 'You said: Thanks!']);
        expect(toolRuns).toEqual([]);
        // The model's call, the hidden round with the mock's result, then the next user turn with that round spliced back in.
        const rain = '{"forecast":"Rain in Paris"}';
        expect(
          upstreamRequests.map((request) => [
            request.system,
            request.lastUser,
            request.trailingResults,
            request.results,
          ]),
        ).toEqual([
          [system, 'What is the weather in Paris?', [], []],
          [system, 'What is the weather in Paris?', [rain], [rain]],
          [system, 'Thanks!', [], [rain]],
        ]);
        expect(
          (await listCalls(mocked)).map(({ name, arguments: args, mocked: isMocked }) => [
            name,
            args,
            isMocked,
          ]),
        ).toEqual([['get_weather', { city: 'Paris' }, true]]);
      });

      it('replays the mocked run with the upstream gone; the agent tool still never runs', async () => {
        const { result, misses, upstreamRequests } = await throughProxy(
          { mode: 'replay', cassette: mocked, upstream: goneUpstream, mocks: mocksConfig() },
          (agent) => agent.converse(mockedConversation, { system }),
        );
        expect(result).toEqual(['Forecast: {"forecast":"Rain in Paris"}', 'You said: Thanks!']);
        expect([misses, upstreamRequests.length]).toEqual([0, 0]);
        expect(toolRuns).toEqual([]);
      });
    });
  });
}

async function listCalls(cassette: string): Promise<ListedCall[]> {
  const listed = await runCliAsync(['calls', '--cassette', cassette, '--json']);
  expect(listed.stderr).toBe('');
  expect(listed.status).toBe(0);
  return listed.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .map((call) => ({
      interaction: String(call['interaction_id']),
      name: String(call['name']),
      arguments: call['arguments'],
      index: Number(call['index']),
      mocked: call['mocked'] === true,
    }));
}

/** The URL of a port nothing listens on any more: an upstream that is gone. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
