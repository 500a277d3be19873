import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiChunks, geminiSse } from '../../../test/support/gemini-chunks.js';
import { seededRandom } from '../../../test/support/random.js';
import { answerKey, keyAfter, type PrefixKey } from '../../trace/prefix-hash.js';
import type { JsonValue } from '../../trace/trace.js';
import { geminiAdapter } from './gemini-adapter.js';
import { geminiToolLoop } from './gemini-tool-loop.js';
import { parseGeminiRequest } from './parse-gemini-request.js';

const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8');
const asSse = (lines: string): string =>
  lines
    .split('\n')
    .filter(Boolean)
    .map((line) => `data: ${line}\r\n\r\n`)
    .join('');

/** The recorded Gemini 3 stream: one signed call (`weather`), then the finishing chunk. */
const recorded = asSse(fixture('ai-sdk-google-tool-call.chunks.txt'));
const signature = (
  JSON.parse(fixture('ai-sdk-google-tool-call.chunks.txt').split('\n')[0] ?? '') as {
    candidates: [{ content: { parts: [{ thoughtSignature: string }] } }];
  }
).candidates[0].content.parts[0].thoughtSignature;

const parse = (body: string) =>
  geminiAdapter.parseResponse({
    httpStatus: 200,
    contentType: 'text/event-stream',
    body: [new TextEncoder().encode(body)],
    ending: 'finished',
  });

describe('Gemini tool loop', () => {
  it('sends a model turn back with its parts as answered, the thought signature byte for byte', () => {
    const output = parse(recorded).response?.output;
    if (!output) expect.fail('no output');
    const [model, results] = geminiToolLoop.turnMessages(
      output,
      [{ callId: output.toolCalls[0]?.id ?? '', content: '{"temperature":18}', isError: false }],
      recorded,
    );
    expect(model).toEqual({
      role: 'model',
      parts: [
        {
          functionCall: { name: 'weather', args: { location: 'San Francisco' } },
          thoughtSignature: signature,
        },
      ],
    });
    // No id went upstream: the model sent none (calltape's own id stays calltape's).
    expect(results).toEqual({
      role: 'user',
      parts: [{ functionResponse: { name: 'weather', response: { temperature: 18 } } }],
    });
  });

  it('splices the hidden rounds back with their signatures unchanged, merging the results into one user content', () => {
    const system = { parts: [{ text: 'Be brief.' }] };
    const user = { role: 'user', parts: [{ text: 'Weather in SF, then email it' }] };
    const hiddenAnswer = parse(recorded).response?.output;
    if (!hiddenAnswer) expect.fail('no output');
    const hidden = geminiToolLoop.turnMessages(
      hiddenAnswer,
      [{ callId: hiddenAnswer.toolCalls[0]?.id ?? '', content: 'Sunny, 18°C', isError: false }],
      recorded,
    );
    // The visible answer after the hidden round: a call the agent runs itself.
    const visibleBody = geminiSse(
      geminiChunks(
        { calls: [{ name: 'send_email', args: '{"to":"a@b.c"}', thoughtSignature: 'c2lnbmVk' }] },
        seededRandom(1),
      ),
    );
    const visible = parse(visibleBody).response?.output;
    if (!visible) expect.fail('no output');
    const request = { systemInstruction: system, contents: [user] };
    const prefix = keyAfter(parseGeminiRequest(request).messages);
    const kept = new Map<PrefixKey, readonly JsonValue[]>([
      [
        answerKey(prefix, visible),
        [...hidden, ...geminiToolLoop.turnMessages(visible, [], visibleBody)],
      ],
    ]);
    // The agent sends its history back: the visible turn (as its SDK keeps it) and its own result.
    const agentTurn = {
      role: 'model',
      parts: [
        {
          functionCall: { name: 'send_email', args: { to: 'a@b.c' } },
          thoughtSignature: 'c2lnbmVk',
        },
      ],
    };
    const agentResult = {
      role: 'user',
      parts: [{ functionResponse: { name: 'send_email', response: { output: 'sent' } } }],
    };
    const spliced = geminiToolLoop.splice(
      { systemInstruction: system, contents: [user, agentTurn, agentResult] },
      (key) => kept.get(key),
    ) as { contents: JsonValue[] };
    expect(spliced.contents).toEqual([user, ...hidden, agentTurn, agentResult]);
    expect(JSON.stringify(spliced)).toContain(JSON.stringify(signature));
    expect(geminiToolLoop.toolResults(spliced)).toEqual([
      expect.objectContaining({ name: 'weather', content: 'Sunny, 18°C' }),
      expect.objectContaining({ name: 'send_email', content: 'sent' }),
    ]);
  });

  it('merges the mocks results and the agent own into the one user content after a turn', () => {
    const calls = [
      { name: 'lookup', args: '{"q":"x"}' },
      { name: 'send_email', args: '{"to":"a@b.c"}' },
    ];
    const body = geminiSse(geminiChunks({ calls }, seededRandom(2)));
    const output = parse(body).response?.output;
    if (!output) expect.fail('no output');
    const [lookup, email] = output.toolCalls;
    const turn = geminiToolLoop.turnMessages(
      output,
      [{ callId: lookup?.id ?? '', content: 'found', isError: false }],
      body,
    );
    const visible = geminiToolLoop.withoutCalls(
      body,
      { stream: true, includeUsage: false },
      new Set([lookup?.id ?? '']),
    );
    const visibleOutput = parse(visible ?? '').response?.output;
    expect(visibleOutput?.toolCalls.map((call) => [call.id, call.name])).toEqual([
      [email?.id, 'send_email'],
    ]);
    expect(visible?.startsWith('data: ')).toBe(true);
    const user = { role: 'user', parts: [{ text: 'Go' }] };
    const prefix = keyAfter(parseGeminiRequest({ contents: [user] }).messages);
    const kept = new Map([
      [answerKey(prefix, { text: '', toolCalls: visibleOutput?.toolCalls ?? [] }), turn],
    ]);
    const agentResult = { functionResponse: { name: 'send_email', response: { output: 'sent' } } };
    const spliced = geminiToolLoop.splice(
      {
        contents: [
          user,
          {
            role: 'model',
            parts: [{ functionCall: { name: 'send_email', args: { to: 'a@b.c' } } }],
          },
          { role: 'user', parts: [agentResult] },
        ],
      },
      (key) => kept.get(key),
    ) as { contents: { role: string; parts: JsonValue[] }[] };
    expect(spliced.contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    expect(spliced.contents[1]?.parts).toHaveLength(2);
    expect(spliced.contents[2]?.parts).toEqual([
      { functionResponse: { name: 'lookup', response: { output: 'found' } } },
      agentResult,
    ]);
  });

  it('replaces a result by call id, answering calls without ids by name in order', () => {
    const body = {
      contents: [
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'get', args: { n: 1 } } },
            { functionCall: { name: 'get', args: { n: 2 } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get', response: { output: 'one' } } },
            { functionResponse: { name: 'get', response: { output: 'two' } } },
          ],
        },
      ],
    };
    const [first, second] = geminiToolLoop.toolResults(body);
    expect([first?.argumentsRaw, first?.content, second?.argumentsRaw, second?.content]).toEqual([
      '{"n":1}',
      'one',
      '{"n":2}',
      'two',
    ]);
    const replaced = geminiToolLoop.withToolResults(
      body,
      new Map([[second?.callId ?? '', '{"value":2}']]),
    );
    expect(geminiToolLoop.toolResults(replaced).map((result) => result.content)).toEqual([
      'one',
      '{"value":2}',
    ]);
  });

  it('keeps the thought signature when it re-expresses an answer in another form (convertBody)', () => {
    const json = geminiAdapter.convertBody(recorded, { stream: false, includeUsage: true });
    expect(json?.body).toContain(JSON.stringify(signature));
    const stream = geminiAdapter.convertBody(json?.body ?? '', {
      stream: true,
      includeUsage: true,
    });
    expect(stream?.body).toContain(JSON.stringify(signature));
    expect(parse(stream?.body ?? '').response?.output).toEqual(parse(recorded).response?.output);
  });
});
