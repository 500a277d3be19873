import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CaseResult } from '../../src/scoring/case-result.js';
import { runCliAsync as runCli } from '../support/cli.js';
import { chatCompletion, type ScriptedTurn } from '../support/openai-chat-chunks.js';
import {
  startScriptedUpstream,
  type ReceivedRequest,
  type ScriptedResponse,
  type ScriptedUpstream,
} from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

const running: ScriptedUpstream[] = [];
const runsDb = join(temporaryFolder(), 'runs.sqlite');
const runCliAsync = (args: readonly string[]): ReturnType<typeof runCli> =>
  runCli(args, { env: { CALLTAPE_RUNS_DB: runsDb } });
afterEach(async () => {
  for (const upstream of running.splice(0)) await upstream.close();
});

interface ChatMessage {
  readonly role: string;
  readonly content: string | null;
}

/**
 * Plays both models, told apart by the request: the user model's system message says it plays
 * the user. The desk asks for the order and refunds it (a mocked call); the user asks for a
 * refund, gives the order, and stops once refunded — unless its goal says to keep chatting.
 */
function bothSides(request: ReceivedRequest): ScriptedResponse {
  const { messages } = JSON.parse(request.body) as { messages: ChatMessage[] };
  const system = messages[0]?.role === 'system' ? (messages[0].content ?? '') : '';
  const last = messages.at(-1);
  let turn: ScriptedTurn;
  if (system.includes('You play the user')) {
    const agentSaid = last?.content ?? '';
    turn = {
      text: /Refunded/.test(agentSaid)
        ? system.includes('keep chatting')
          ? 'Tell me more.'
          : '###STOP###'
        : /Which order/.test(agentSaid)
          ? 'Order A-17.'
          : 'I want a refund.',
    };
  } else if (last?.role === 'tool') turn = { text: 'Refunded A-17.' };
  else if (/A-17/.test(last?.content ?? ''))
    turn = {
      toolCalls: [{ id: 'call_r', name: 'issue_refund', arguments: '{"order_id":"A-17"}' }],
    };
  else if (/refund/.test(last?.content ?? '')) turn = { text: 'Which order?' };
  else turn = { text: 'Anything else?' };
  return { kind: 'json', body: chatCompletion(turn) };
}

function suiteFile(folder: string): string {
  writeFileSync(
    join(folder, 'mocks.json'),
    JSON.stringify({ mocks: [{ tool: 'issue_refund', result: { refunded: true } }] }),
  );
  writeFileSync(
    join(folder, 'refunded.mjs'),
    "export function judge(trajectory) { const done = trajectory.calls.some((call) => call.name === 'issue_refund'); return { pass: done, reason: done ? 'the refund was issued' : 'no refund yet' }; }\n",
  );
  const path = join(folder, 'users.json');
  const user = { persona: 'A customer in a hurry.', goal: 'Get order A-17 refunded.' };
  writeFileSync(
    path,
    JSON.stringify({
      name: 'users',
      model: 'desk-1',
      system: 'You handle refunds.',
      tools: [
        {
          type: 'function',
          function: {
            name: 'issue_refund',
            parameters: { type: 'object', properties: { order_id: { type: 'string' } } },
          },
        },
      ],
      mocks: ['./mocks.json'],
      cassette: 'users.sqlite',
      cases: [
        { test_id: 'user-stops', user, expect: { calls: ['issue_refund'] } },
        {
          test_id: 'judge-stops',
          user: { ...user, stop_when: { code: './refunded.mjs' } },
          expect: { calls: ['issue_refund'] },
        },
        {
          test_id: 'turns-run-out',
          turns: [{ user: 'I want a refund.' }],
          user: { ...user, goal: 'Get order A-17 refunded, then keep chatting.', max_turns: 4 },
          expect: { calls: ['issue_refund'] },
        },
      ],
    }),
  );
  return path;
}

function transcripts(file: string): unknown[] {
  const report = JSON.parse(readFileSync(file, 'utf8')) as { cases: CaseResult[] };
  return report.cases.map((result) => [
    result.test_id,
    result.status,
    result.conversation?.ended_by,
    result.conversation?.ended_reason,
    result.conversation?.turns.map((turn) => [turn.user, turn.reply]),
    result.calls.map((call) => call.name),
  ]);
}

describe('simulated users (issue 33)', () => {
  it('a model plays the user through the proxy; record then replay offline gives the same transcripts and end reasons', async () => {
    const folder = temporaryFolder();
    const suite = suiteFile(folder);
    const live = await startScriptedUpstream(bothSides);
    running.push(live);
    const recordJson = join(folder, 'record.json');
    const recorded = await runCliAsync([
      'test',
      suite,
      '--mode',
      'record',
      '--upstream',
      live.url,
      '--json',
      recordJson,
      '--concurrency',
      '1',
    ]);
    expect(recorded.stderr).not.toContain('warning');
    expect(recorded.status).toBe(0);
    await live.close();
    const expected = [
      [
        'user-stops',
        'pass',
        'goal',
        'the simulated user said its goal was reached',
        [
          ['I want a refund.', 'Which order?'],
          ['Order A-17.', 'Refunded A-17.'],
        ],
        ['issue_refund'],
      ],
      [
        'judge-stops',
        'pass',
        'goal',
        'stop_when: the refund was issued',
        [
          ['I want a refund.', 'Which order?'],
          ['Order A-17.', 'Refunded A-17.'],
        ],
        ['issue_refund'],
      ],
      [
        'turns-run-out',
        'pass',
        'max_turns',
        '4 turn(s) said',
        [
          ['I want a refund.', 'Which order?'],
          ['Order A-17.', 'Refunded A-17.'],
          ['Tell me more.', 'Anything else?'],
          ['I want a refund.', 'Which order?'],
        ],
        ['issue_refund'],
      ],
    ];
    expect(transcripts(recordJson)).toEqual(expected);

    const replayJson = join(folder, 'replay.json');
    const replayed = await runCliAsync(['test', suite, '--json', replayJson]);
    expect(replayed.stderr).not.toContain('miss');
    expect(replayed.status).toBe(0);
    expect(transcripts(replayJson)).toEqual(expected);
  });
});
