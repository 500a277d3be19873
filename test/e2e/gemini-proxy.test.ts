import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, GoogleGenAI } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { runCliAsync } from '../support/cli.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

type TestProxy = Awaited<ReturnType<typeof startTestProxy>>;
const running: (TestProxy | ScriptedUpstream)[] = [];
afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
});

/** The AI SDK's recording of two parallel Gemini 3 calls, as the JSON-array stream `:streamGenerateContent` sends without `alt`. */
const recordedArray = `[${readFileSync(
  join(
    packageRoot,
    'src/providers/gemini/__fixtures__/ai-sdk-google-stream-tool-call-arguments.chunks.txt',
  ),
  'utf8',
)
  .split('\n')
  .filter(Boolean)
  .join('\n,\r\n')}]`;
const path = '/v1beta/models/gemini-3.1-pro-preview:streamGenerateContent';
const body = JSON.stringify({
  contents: [{ role: 'user', parts: [{ text: 'Weather in Boston and San Francisco?' }] }],
  tools: [
    {
      functionDeclarations: [
        {
          name: 'getWeather',
          parameters: { type: 'OBJECT', properties: { location: { type: 'STRING' } } },
        },
      ],
    },
  ],
});

async function post(url: string, text: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': 'AIzaSy-e2e-secret-key' },
    body: text,
  });
  return { status: response.status, text: await response.text() };
}

describe('Gemini through calltape', () => {
  it('passes the JSON-array stream through byte for byte, split anywhere, records its parallel calls and replays them with the upstream gone', async () => {
    const upstream = await startScriptedUpstream([
      {
        kind: 'sse',
        headers: { 'content-type': 'application/json; charset=UTF-8' },
        body: recordedArray,
        split: { seed: 3, maxPiece: 17 },
      },
    ]);
    const cassette = join(temporaryFolder(), 'gemini.sqlite');
    const recorder = await startTestProxy(upstream.url, { geminiUpstream: upstream.url, cassette });
    running.push(upstream);
    const live = await post(`${recorder.url}${path}`, body);
    await recorder.close();
    expect(live).toEqual({ status: 200, text: recordedArray });
    expect(upstream.received[0]?.url).toBe(path);

    const listed = await runCliAsync(['calls', '--cassette', cassette, '--json']);
    expect(listed.status).toBe(0);
    const calls = listed.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { name: string; arguments: unknown; index: number });
    expect(calls.map((call) => [call.name, call.arguments, call.index])).toEqual([
      ['getWeather', { location: 'Boston' }, 0],
      ['getWeather', { location: 'San Francisco' }, 1],
    ]);
    expect(readFileSync(cassette).includes('AIzaSy-e2e-secret-key')).toBe(false);

    await upstream.close();
    running.splice(0);
    const replayer = await startTestProxy('http://127.0.0.1:9', {
      geminiUpstream: 'http://127.0.0.1:9',
      cassette,
      mode: 'replay',
    });
    running.push(replayer);
    expect(await post(`${replayer.url}${path}`, body)).toEqual({
      status: 200,
      text: recordedArray,
    });
  });

  it("answers a malformed body in Google's error shape, and @google/genai raises it as its ApiError", async () => {
    // An empty cassette to replay from: what a recorder that saw nothing leaves.
    const cassette = join(temporaryFolder(), 'empty.sqlite');
    await (await startTestProxy('http://127.0.0.1:9', { cassette })).close();
    const proxy = await startTestProxy('http://127.0.0.1:9', {
      geminiUpstream: 'http://127.0.0.1:9',
      cassette,
      mode: 'replay',
    });
    running.push(proxy);
    const malformed = await post(
      `${proxy.url}/v1beta/models/gemini-2.5-flash:generateContent`,
      '{"contents": [',
    );
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.text)).toEqual({
      error: { code: 400, message: expect.any(String) as unknown, status: 'INVALID_ARGUMENT' },
    });

    const ai = new GoogleGenAI({ apiKey: 'AIzaSy-e2e-key', httpOptions: { baseUrl: proxy.url } });
    const error: unknown = await ai.models
      .generateContent({ model: 'gemini-2.5-flash', contents: 'Hi' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).message).toContain('NOT_FOUND');
    expect((error as ApiError).message).toContain('calltape: cassette');
  });
});
