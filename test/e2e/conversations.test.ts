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
  readonly tool_calls?: readonly { readonly id: string }[];
  readonly tool_call_id?: string;
}

/**
 * A refund desk: asks for the order, looks it up (mocked inside the proxy), asks to confirm,
 * refunds (not mocked: calltape answers that it was not run), says goodbye.
 */
function refundDesk(request: ReceivedRequest): ScriptedResponse {
  const { messages } = JSON.parse(request.body) as { messages: ChatMessage[] };
  const last = messages.at(-1);
  const user = [...messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  const turn: ScriptedTurn =
    last?.role === 'tool'
      ? { text: `Order A-17 is ${last.content?.includes('shipped') ? 'shipped' : '?'}. Refund it?` }
      : /refund/i.test(user)
        ? { text: 'Which order?' }
        : /A-17/.test(user)
          ? {
              toolCalls: [{ id: 'call_1', name: 'lookup_order', arguments: '{"order_id":"A-17"}' }],
            }
          : /yes/i.test(user)
            ? {
                toolCalls: [
                  {
                    id: 'call_2',
                    name: 'issue_refund',
                    arguments: '{"order_id":"A-17","amount":20}',
                  },
                ],
              }
            : { text: 'Goodbye!' };
  return { kind: 'json', body: chatCompletion(turn) };
}

const tools = [
  {
    type: 'function',
    function: {
      name: 'lookup_order',
      parameters: { type: 'object', properties: { order_id: { type: 'string' } } },
    },
  },
  {
    type: 'function',
    function: {
      name: 'issue_refund',
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'string' }, amount: { type: 'number' } },
      },
    },
  },
];

function suiteFile(folder: string, turn4: object): string {
  writeFileSync(
    join(folder, 'mocks.json'),
    JSON.stringify({
      mocks: [{ tool: 'lookup_order', result: { status: 'shipped' } }],
    }),
  );
  const path = join(folder, 'refunds.json');
  writeFileSync(
    path,
    JSON.stringify({
      name: 'refunds',
      model: 'desk-1',
      system: 'You handle refunds.',
      tools,
      mocks: ['./mocks.json'],
      cassette: 'refunds.sqlite',
      cases: [
        {
          test_id: 'refund-flow',
          turns: [
            { user: 'I want a refund', never: ['issue_refund', 'lookup_order'] },
            {
              user: 'Order A-17',
              expected_tool: 'lookup_order',
              arguments: { order_id: 'A-17' },
            },
            {
              user: 'Yes please',
              expect: { calls: [{ tool: 'issue_refund', arguments: { order_id: 'A-17' } }] },
            },
            { user: 'Thanks', ...turn4 },
          ],
          expect: { before: [['lookup_order', 'issue_refund']], max_user_turns: 4 },
        },
      ],
    }),
  );
  return path;
}

function caseOf(file: string): CaseResult {
  const report = JSON.parse(readFileSync(file, 'utf8')) as { cases: CaseResult[] };
  const [only] = report.cases;
  if (!only) throw new Error('no case in the report');
  return only;
}

describe('conversations in direct mode (issue 33)', () => {
  it('records a 4-turn case, then replays it offline with the same per-turn verdicts', async () => {
    const folder = temporaryFolder();
    const suite = suiteFile(folder, { never: ['issue_refund'] });
    const live = await startScriptedUpstream(refundDesk);
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
    ]);
    expect(recorded.stderr).not.toContain('warning');
    expect(recorded.status).toBe(0);
    // Turn 2's mocked lookup took a hidden round inside the proxy: 5 model requests in all.
    expect(live.received).toHaveLength(5);
    // Turn 4's request carries the whole history: the mocked lookup as the proxy spliced it in,
    // and the unmocked refund answered by calltape as not run.
    const lastBody = JSON.parse(live.received.at(-1)?.body ?? '{}') as { messages: ChatMessage[] };
    expect(lastBody.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
      'tool',
      'user',
    ]);
    const refundAnswer = lastBody.messages.find((message) => message.tool_call_id === 'call_2');
    expect(refundAnswer?.content).toContain('not run');
    await live.close();

    const replayJson = join(folder, 'replay.json');
    const replayed = await runCliAsync(['test', suite, '--json', replayJson]);
    expect(replayed.status).toBe(0);
    for (const file of [recordJson, replayJson]) {
      const result = caseOf(file);
      expect(result.status).toBe('pass');
      expect(
        result.conversation?.turns.map((turn) => [
          turn.turn,
          turn.user,
          turn.reply,
          turn.status,
          turn.calls.map((call) => call.name),
        ]),
      ).toEqual([
        [1, 'I want a refund', 'Which order?', 'pass', []],
        [2, 'Order A-17', 'Order A-17 is shipped. Refund it?', 'pass', ['lookup_order']],
        [3, 'Yes please', null, 'pass', ['issue_refund']],
        [4, 'Thanks', 'Goodbye!', 'pass', []],
      ]);
      expect(result.conversation).toMatchObject({
        ended_by: 'script',
        mean_turn_score: 1,
        all_turns_pass: true,
      });
      expect(result.calls.map((call) => [call.name, call.round, call.user_turn])).toEqual([
        ['lookup_order', 2, 2],
        ['issue_refund', 4, 3],
      ]);
    }
  });

  it('fails a turn expectation that should fail, naming the turn', async () => {
    const folder = temporaryFolder();
    // Turn 4 expects a refund the desk never makes then.
    const suite = suiteFile(folder, { expected_tool: 'issue_refund' });
    const live = await startScriptedUpstream(refundDesk);
    running.push(live);
    const json = join(folder, 'report.json');
    const result = await runCliAsync([
      'test',
      suite,
      '--mode',
      'record',
      '--upstream',
      live.url,
      '--json',
      json,
    ]);
    expect(result.status).toBe(1);
    const failed = caseOf(json);
    expect(failed.status).toBe('fail');
    expect(failed.conversation?.turns.map((turn) => turn.status)).toEqual([
      'pass',
      'pass',
      'pass',
      'fail',
    ]);
    expect(failed.problems[0]).toMatch(/^turn 4: /);
    expect(result.stdout).toContain('turn 4');
  });

  it('refuses a case with turns for an agent that takes one prompt, naming the case and the setting', async () => {
    const folder = temporaryFolder();
    const path = join(folder, 'agent.json');
    writeFileSync(
      path,
      JSON.stringify({
        agent: { command: 'node agent.js' },
        cases: [{ test_id: 'talk', turns: [{ user: 'hi' }, { user: 'bye' }] }],
      }),
    );
    const result = await runCliAsync(['test', path]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${path}: case "talk" (#1): turns:`);
    expect(result.stderr).toContain('agent.protocol');
  });
});
