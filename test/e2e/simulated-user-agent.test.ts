import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { packageRoot } from '../../src/package-root.js';
import type { CaseResult } from '../../src/scoring/case-result.js';
import { runCliAsync } from '../support/cli.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { refundConversationModel } from '../support/refund-conversation-model.js';
import {
  startScriptedUpstream,
  type ReceivedRequest,
  type ScriptedResponse,
  type ScriptedUpstream,
} from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

const key = 'sk-test-key-0123456789abcdef';

/**
 * Both models: the simulated user (its system message says it plays the user) asks for a refund,
 * names the order when asked, confirms, and stops once refunded; everything else is the example
 * agent's careful refund model.
 */
function bothSides(request: ReceivedRequest, callNumber: number): ScriptedResponse {
  const { messages } = JSON.parse(request.body) as {
    messages: { role: string; content: string | null }[];
  };
  const system = messages[0]?.role === 'system' ? (messages[0].content ?? '') : '';
  if (!system.includes('You play the user')) return refundConversationModel(request, callNumber);
  const agentSaid = messages.at(-1)?.content ?? '';
  const text = /Which order/.test(agentSaid)
    ? 'Order A-17.'
    : /Shall I refund/.test(agentSaid)
      ? 'yes, please'
      : /is refunded/.test(agentSaid)
        ? '###STOP###'
        : 'I want a refund.';
  return { kind: 'json', body: chatCompletion({ text }) };
}

let upstream: ScriptedUpstream;
beforeAll(async () => {
  upstream = await startScriptedUpstream(bothSides);
});
afterAll(() => upstream.close());

function transcript(file: string): unknown {
  const report = JSON.parse(readFileSync(file, 'utf8')) as { cases: CaseResult[] };
  return report.cases.map((result) => [
    result.status,
    result.conversation?.ended_by,
    result.conversation?.turns.map((turn) => [
      turn.user,
      turn.reply,
      turn.calls.map((call) => call.name),
    ]),
  ]);
}

// Regression: a simulated user was refused for an agent that converses (agent.protocol), though the protocol carries any user turn.
describe('a simulated user talking to an agent over the process protocol', () => {
  it('records the conversation the user model and the agent hold, then replays it offline to the same transcript', async () => {
    const folder = temporaryFolder();
    const suite = join(folder, 'suite.yaml');
    writeFileSync(
      suite,
      stringify({
        name: 'simulated-refund',
        model: 'gpt-4o-mini',
        mocks: [join(packageRoot, 'examples/conversation/mocks.yaml')],
        cassette: 'simulated.sqlite',
        agent: {
          command: `node ${join(packageRoot, 'dist/examples/conversation/refund-agent.js')}`,
          protocol: 'jsonl',
        },
        cases: [
          {
            test_id: 'simulated-refund',
            user: { persona: 'A customer with a broken kettle.', goal: 'Get order A-17 refunded.' },
            expect: { calls: ['get_order', 'issue_refund'] },
          },
        ],
      }),
    );
    const run = async (mode: 'record' | 'replay') => {
      const json = join(folder, `${mode}.json`);
      const result = await runCliAsync(
        [
          'test',
          suite,
          '--mode',
          mode,
          '--upstream',
          mode === 'record' ? upstream.url : 'http://127.0.0.1:9',
          '--json',
          json,
        ],
        { env: { OPENAI_API_KEY: key }, cwd: folder },
      );
      expect(result.status, result.stdout + result.stderr).toBe(0);
      return transcript(json);
    };
    const expected = [
      [
        'pass',
        'goal',
        [
          ['I want a refund.', 'Which order would you like refunded?', []],
          ['Order A-17.', 'Order A-17 is a kettle for 42 EUR. Shall I refund it?', ['get_order']],
          ['yes, please', 'Done: order A-17 is refunded (refund R-1).', ['issue_refund']],
        ],
      ],
    ];
    expect(await run('record')).toEqual(expected);
    expect(await run('replay')).toEqual(expected);
  }, 120_000);
});
