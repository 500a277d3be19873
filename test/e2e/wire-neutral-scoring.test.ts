import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicMessage } from '../support/anthropic-messages-events.js';
import { runCliAsync } from '../support/cli.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { responsesObject } from '../support/openai-responses-events.js';
import {
  startScriptedUpstream,
  type ReceivedRequest,
  type ScriptedResponse,
  type ScriptedUpstream,
} from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

const running: ScriptedUpstream[] = [];
afterEach(async () => {
  for (const upstream of running.splice(0)) await upstream.close();
});

/** The same model behind three wires: a weather call with the city from the prompt, then a closing line. */
function model(request: ReceivedRequest): ScriptedResponse {
  const body = request.body;
  const answered = /tool_result|function_call_output|"role":"tool"/.test(body);
  const city = /in (\w+)/.exec(body)?.[1] ?? 'Nowhere';
  const args = JSON.stringify({ city, unit: /fahrenheit/.test(body) ? 'fahrenheit' : 'celsius' });
  if (request.url.endsWith('/messages'))
    return {
      kind: 'json',
      body: anthropicMessage(
        answered
          ? { text: 'Done.' }
          : { toolUses: [{ id: 'toolu_1', name: 'get_weather', input: args }] },
      ),
    };
  if (request.url.endsWith('/responses'))
    return {
      kind: 'json',
      body: responsesObject(
        answered
          ? { text: 'Done.' }
          : { calls: [{ callId: 'call_1', name: 'get_weather', arguments: args }] },
      ),
    };
  return {
    kind: 'json',
    body: chatCompletion(
      answered
        ? { text: 'Done.' }
        : { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: args }] },
    ),
  };
}

/** One tiny agent per wire: asks, runs the tool, sends the result back, prints the answer. */
const agent = `
const wire = process.env.WIRE, prompt = process.argv[2];
const post = (url, body, headers) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then((r) => r.json());
const openai = { authorization: 'Bearer ' + process.env.OPENAI_API_KEY };
const parameters = { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } } };
(async () => {
  if (wire === 'chat') {
    const first = await post(process.env.OPENAI_BASE_URL + '/chat/completions', { model: 'm', messages: [{ role: 'user', content: prompt }], tools: [{ type: 'function', function: { name: 'get_weather', parameters } }] }, openai);
    const message = first.choices[0].message;
    const results = (message.tool_calls || []).map((call) => ({ role: 'tool', tool_call_id: call.id, content: 'mild' }));
    const second = await post(process.env.OPENAI_BASE_URL + '/chat/completions', { model: 'm', messages: [{ role: 'user', content: prompt }, message, ...results] }, openai);
    console.log(second.choices[0].message.content);
  } else if (wire === 'responses') {
    const first = await post(process.env.OPENAI_BASE_URL + '/responses', { model: 'm', input: prompt, tools: [{ type: 'function', name: 'get_weather', parameters }] }, openai);
    const calls = first.output.filter((item) => item.type === 'function_call');
    const second = await post(process.env.OPENAI_BASE_URL + '/responses', { model: 'm', previous_response_id: first.id, input: calls.map((call) => ({ type: 'function_call_output', call_id: call.call_id, output: 'mild' })) }, openai);
    console.log(second.output[0].content[0].text);
  } else {
    const headers = { 'x-api-key': process.env.ANTHROPIC_API_KEY, 'anthropic-version': '2023-06-01' };
    const first = await post(process.env.ANTHROPIC_BASE_URL + '/v1/messages', { model: 'c', max_tokens: 100, messages: [{ role: 'user', content: prompt }], tools: [{ name: 'get_weather', input_schema: parameters }] }, headers);
    const uses = first.content.filter((block) => block.type === 'tool_use');
    const second = await post(process.env.ANTHROPIC_BASE_URL + '/v1/messages', { model: 'c', max_tokens: 100, messages: [{ role: 'user', content: prompt }, { role: 'assistant', content: first.content }, { role: 'user', content: uses.map((use) => ({ type: 'tool_result', tool_use_id: use.id, content: 'mild' })) }] }, headers);
    console.log(second.content[0].text);
  }
})();
`;

describe('one suite, three wires', () => {
  it('scores the same agent behaviour the same whether it speaks Chat Completions, Responses or Anthropic Messages', async () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'agent.cjs'), agent);
    const upstream = await startScriptedUpstream(model);
    running.push(upstream);
    const cases = [
      {
        test_id: 'paris',
        prompt: 'Weather in Paris?',
        expected_tool: 'get_weather',
        arguments: { city: 'Paris', unit: 'celsius' },
        expect: { calls: ['get_weather'], max_rounds: 2 },
      },
      {
        test_id: 'austin',
        prompt: 'Weather in Austin in fahrenheit?',
        expected_tool: 'get_weather',
        arguments: { city: 'Austin', unit: 'celsius' },
      },
    ];
    const reports: Record<
      string,
      {
        cases: {
          test_id: string;
          status: string;
          score: number;
          calls: { name: string; arguments: string }[];
          rounds: number;
        }[];
      }
    > = {};
    for (const wire of ['chat', 'responses', 'anthropic']) {
      const suite = join(folder, `${wire}.json`);
      writeFileSync(
        suite,
        JSON.stringify({
          name: wire,
          cassette: `${wire}.sqlite`,
          gates: { pass_rate: 0.5 },
          agent: { command: `node ${join(folder, 'agent.cjs')}`, env: { WIRE: wire } },
          cases,
        }),
      );
      const result = await runCliAsync(
        [
          'test',
          suite,
          '--mode',
          'record',
          '--upstream',
          upstream.url,
          '--anthropic-upstream',
          upstream.url,
          '--json',
          join(folder, `${wire}.report.json`),
          '--no-store',
        ],
        {
          env: {
            OPENAI_API_KEY: 'sk-test-key-0123456789abcdef',
            ANTHROPIC_API_KEY: 'sk-ant-test-key-0123456789abcdef',
          },
        },
      );
      expect(result.status, result.stdout + result.stderr).toBe(0);
      reports[wire] = JSON.parse(
        readFileSync(join(folder, `${wire}.report.json`), 'utf8'),
      ) as (typeof reports)[string];
    }
    const verdicts = (wire: string) =>
      reports[wire]?.cases.map((item) => [
        item.test_id,
        item.status,
        item.score,
        item.rounds,
        item.calls.map((call) => [call.name, JSON.parse(call.arguments)]),
      ]);
    expect(verdicts('chat')).toEqual([
      ['paris', 'pass', 1, 2, [['get_weather', { city: 'Paris', unit: 'celsius' }]]],
      ['austin', 'fail', 0.5, 2, [['get_weather', { city: 'Austin', unit: 'fahrenheit' }]]],
    ]);
    expect(verdicts('responses')).toEqual(verdicts('chat'));
    expect(verdicts('anthropic')).toEqual(verdicts('chat'));
  });
});
