import { describe, expect, it } from 'vitest';
import { ollamaChatLines, ollamaChatResponse } from '../../../test/support/ollama-chat-lines.js';
import { seededRandom } from '../../../test/support/random.js';
import { answerKey, emptyPrefix, prefixKeys } from '../../trace/prefix-hash.js';
import type { JsonValue } from '../../trace/trace.js';
import { asObject } from '../json-access.js';
import { ollamaChatAdapter } from './ollama-chat-adapter.js';
import { ollamaToolLoop } from './ollama-tool-loop.js';

const ndjson = 'application/x-ndjson';
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const calls = [
  { name: 'lookup_account', arguments: '{"iban":"CH93 0076 2011 6238 5295 7"}' },
  { name: 'get_weather', arguments: '{"city":"Zürich"}' },
];
const parseStream = (body: string) =>
  ollamaChatAdapter.parseResponse({
    httpStatus: 200,
    contentType: ndjson,
    body: [bytes(body)],
    ending: 'finished',
  }).response;

describe('ollamaToolLoop', () => {
  it('writes a turn as the assistant message with object arguments and a tool message per result', () => {
    const output = parseStream(
      ollamaChatLines({ text: 'Looking.', calls }, seededRandom(1)),
    )?.output;
    if (!output) throw new Error('the scripted stream did not parse');
    const [first] = output?.toolCalls ?? [];
    const messages = ollamaToolLoop.turnMessages(output, [
      { callId: first?.id ?? '', content: '{"balance":12}', isError: false },
    ]);
    expect(messages).toEqual([
      {
        role: 'assistant',
        content: 'Looking.',
        tool_calls: output.toolCalls.map((call) => ({
          id: call.id,
          function: {
            index: call.index,
            name: call.name,
            arguments: call.arguments.ok ? call.arguments.value : null,
          },
        })),
      },
      {
        role: 'tool',
        content: '{"balance":12}',
        tool_name: 'lookup_account',
        tool_call_id: first?.id,
      },
    ]);
    // The turn read back as a request names the same calls, and the result answers the first.
    const request = ollamaChatAdapter.parseRequest({ model: 'llama3.2', messages });
    expect(request.messages[0]?.toolCalls.map((call) => call.id)).toEqual(
      output.toolCalls.map((call) => call.id),
    );
    expect(request.messages[1]?.toolCallId).toBe(first?.id);
  });

  it.each([
    { stream: true, unnumbered: false },
    { stream: false, unnumbered: false },
    { stream: true, unnumbered: true },
    { stream: false, unnumbered: true },
  ])(
    'hides a mocked call without changing the id of the call after it (stream $stream, no function.index $unnumbered)',
    ({ stream, unnumbered }) => {
      const lines = ollamaChatLines({ calls, unnumbered }, seededRandom(4));
      const body = stream ? lines : JSON.stringify(ollamaChatResponse({ calls, unnumbered }));
      const full = parseStream(lines)?.output;
      const [mocked, kept] = full?.toolCalls ?? [];
      const visible = ollamaToolLoop.withoutCalls(
        body,
        { stream, includeUsage: false },
        new Set([mocked?.id ?? '']),
      );
      const whole = stream
        ? ollamaChatAdapter.convertBody(visible ?? '', { stream: false, includeUsage: false })?.body
        : visible;
      const message = asObject(asObject(JSON.parse(whole ?? '{}') as JsonValue)?.['message']);
      // The agent sends the visible message back: its one call keeps the id the trace gave it…
      const echoed = ollamaChatAdapter.parseRequest({
        messages: [{ role: 'user', content: 'go' }, message ?? {}],
      });
      expect(echoed.messages[1]?.toolCalls.map((call) => [call.id, call.name])).toEqual([
        [kept?.id, 'get_weather'],
      ]);
      // …and reaches the key the loop keeps the hidden history under.
      const userKey = prefixKeys(echoed.messages.slice(0, 1)).at(-1) ?? emptyPrefix;
      expect(prefixKeys(echoed.messages).at(-1)).toBe(
        answerKey(userKey, { text: full?.text ?? '', toolCalls: kept ? [kept] : [] }),
      );
    },
  );

  it('splices the hidden history back in place of the assistant message it stands for', () => {
    const agentBody: JsonValue = {
      model: 'llama3.2',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: 'done' },
        { role: 'user', content: 'thanks' },
      ],
    };
    const keys = prefixKeys(ollamaChatAdapter.parseRequest(agentBody).messages);
    const hidden: JsonValue[] = [{ role: 'assistant', content: 'hidden' }];
    const spliced = ollamaToolLoop.splice(agentBody, (key) =>
      key === keys[1] ? hidden : undefined,
    );
    expect(asObject(spliced ?? null)?.['messages']).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'hidden' },
      { role: 'user', content: 'thanks' },
    ]);
    expect(ollamaToolLoop.splice(agentBody, () => undefined)).toBeUndefined();
  });

  it('finds the results the agent sent and replaces their content by call id', () => {
    const body: JsonValue = {
      model: 'llama3.2',
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: '',
          tool_calls: calls.map((call, index) => ({
            function: {
              index,
              name: call.name,
              arguments: JSON.parse(call.arguments) as JsonValue,
            },
          })),
        },
        { role: 'tool', tool_name: 'get_weather', content: '9°C' },
        { role: 'tool', tool_name: 'lookup_account', content: 'agent result' },
      ],
    };
    const results = ollamaToolLoop.toolResults(body);
    expect(results.map((result) => [result.name, result.content])).toEqual([
      ['get_weather', '9°C'],
      ['lookup_account', 'agent result'],
    ]);
    const account = results[1]?.callId ?? '';
    const replaced = ollamaToolLoop.withToolResults(body, new Map([[account, 'mocked result']]));
    expect(ollamaToolLoop.toolResults(replaced).map((result) => result.content)).toEqual([
      '9°C',
      'mocked result',
    ]);
  });

  it('appends messages to the conversation', () => {
    expect(
      ollamaToolLoop.appendMessages({ model: 'm', messages: [{ role: 'user', content: 'a' }] }, [
        { role: 'tool', content: 'b' },
      ]),
    ).toEqual({
      model: 'm',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'tool', content: 'b' },
      ],
    });
  });
});
