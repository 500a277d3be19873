import { join } from 'node:path';
import OpenAI from 'openai';
import type { RunnableToolFunctionWithoutParse } from 'openai/lib/RunnableFunction';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import type { Config } from '../../src/config/config.js';
import { createLlmJudge } from '../../src/judges/llm-judge.js';
import { scoreTrajectory } from '../../src/scoring/trajectory/score-trajectory.js';
import type { TrajectoryCase } from '../../src/scoring/trajectory/types.js';
import { buildTrajectories } from '../../src/trace/build-trajectories.js';
import {
  chatCompletion,
  chatCompletionChunks,
  encodeSse,
  type ScriptedTurn,
} from '../support/openai-chat-chunks.js';
import { seededRandom } from '../support/random.js';
import {
  startScriptedUpstream,
  type ReceivedRequest,
  type ScriptedResponse,
  type ScriptedUpstream,
} from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

type TestProxy = Awaited<ReturnType<typeof startTestProxy>>;
const running: (TestProxy | ScriptedUpstream)[] = [];
afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
});

const verdict = {
  pass: true,
  score: 0.9,
  reason: 'The refund matches the order and the policy was checked first.',
};

/** A support model: looks up the policy and the order in parallel, refunds, then answers. The judge gets a JSON verdict. */
function supportModel(request: ReceivedRequest, callNumber: number): ScriptedResponse {
  const body = JSON.parse(request.body) as {
    stream?: boolean;
    messages: { role: string; content: string | null }[];
  };
  if (body.messages.some((message) => message.content?.startsWith('Rubric:')))
    return { kind: 'json', body: chatCompletion({ text: JSON.stringify(verdict) }) };
  const results = body.messages.filter((message) => message.role === 'tool').length;
  const turn: ScriptedTurn =
    results === 0
      ? {
          toolCalls: [
            { id: 'call_policy', name: 'search_kb', arguments: '{"query":"refund window"}' },
            { id: 'call_order', name: 'lookup_order', arguments: '{"order_id":"A-17"}' },
          ],
          interleave: true,
        }
      : results === 2
        ? {
            text: 'Refunding now.',
            toolCalls: [
              {
                id: 'call_refund',
                name: 'issue_refund',
                arguments: '{"order_id":"A-17","amount":"20.00"}',
              },
            ],
          }
        : { text: 'I refunded $20 for order A-17.' };
  return body.stream
    ? {
        kind: 'sse',
        body: encodeSse(
          chatCompletionChunks(turn, seededRandom(callNumber + 1), { includeUsage: true }),
        ),
        split: { seed: callNumber, maxPiece: 9 },
      }
    : { kind: 'json', body: chatCompletion(turn) };
}

async function start(
  upstream: string,
  cassette: string,
  overrides: Partial<Config> = {},
): Promise<TestProxy> {
  const proxy = await startTestProxy(upstream, { cassette, ...overrides });
  running.push(proxy);
  return proxy;
}

const tool = (
  name: string,
  result: (args: string) => string,
): RunnableToolFunctionWithoutParse => ({
  type: 'function',
  function: {
    name,
    description: `The ${name} tool.`,
    parameters: { type: 'object', properties: {} },
    function: result,
  },
});

describe('trajectory checks end to end', () => {
  it('scores a multi-turn runTools agent loop recorded through the proxy, with a judge verdict that replays offline', async () => {
    const upstream = await startScriptedUpstream(supportModel);
    running.push(upstream);
    const cassette = join(temporaryFolder(), 'support.sqlite');
    const recorder = await start(upstream.url, cassette, { mode: 'record' });
    const client = new OpenAI({
      apiKey: 'sk-test-key-0123456789abcdef',
      baseURL: recorder.baseUrl,
      maxRetries: 0,
    });
    // No session id anywhere: the proxy chains the three round trips into one conversation.
    const runner = client.chat.completions.runTools({
      model: 'gpt-test',
      stream: true,
      messages: [{ role: 'user', content: 'Please refund order A-17, it arrived broken.' }],
      tools: [
        tool('search_kb', () => 'Refunds within 30 days.'),
        tool('lookup_order', () => '{"order_id":"A-17","total":20}'),
        tool('issue_refund', () => 'refund issued'),
      ],
    });
    expect(await runner.finalContent()).toBe('I refunded $20 for order A-17.');
    await recorder.close();

    const store = new SqliteStore(cassette, { readonly: true });
    const interactions = store.interactions();
    store.close();
    expect(interactions).toHaveLength(3);
    expect(new Set(interactions.map((interaction) => interaction.sessionId)).size).toBe(1);
    const [trajectory, ...others] = buildTrajectories(interactions);
    expect(others).toHaveLength(0);
    if (!trajectory) throw new Error('no trajectory');
    expect(trajectory.counts).toEqual({
      rounds: 3,
      calls: 3,
      byTool: { search_kb: 1, lookup_order: 1, issue_refund: 1 },
      userTurns: 1,
    });
    expect(trajectory.calls.map((call) => [call.name, call.turn, call.result?.text])).toEqual([
      ['search_kb', 0, 'Refunds within 30 days.'],
      ['lookup_order', 0, '{"order_id":"A-17","total":20}'],
      ['issue_refund', 1, 'refund issued'],
    ]);

    const testCase: TrajectoryCase = {
      test_id: 'refund-broken-order',
      prompt: 'Please refund order A-17, it arrived broken.',
      expect: {
        // Listed in the other order than the model called them: one parallel turn has no order.
        calls: [
          'lookup_order',
          'search_kb',
          { tool: 'issue_refund', arguments: { order_id: 'A-17', amount: 20 } },
        ],
        mode: 'exact',
        unlisted: 'fail',
        before: ['search_kb', 'issue_refund'],
        max_steps: 6,
        max_rounds: 4,
        max_repeats: 1,
      },
      never: ['send_email', { tool: 'issue_refund', arguments: { amount: 500 } }],
      judge: {
        rubric:
          'The agent checked the refund policy before refunding, and refunded the order total.',
      },
    };
    // The judge asks through a recording proxy: its verdict goes into the cassette with the run.
    const judging = await start(upstream.url, cassette, { mode: 'record' });
    const scored = await scoreTrajectory(testCase, trajectory, {
      judges: {
        llm: createLlmJudge({
          baseUrl: judging.baseUrl,
          model: 'judge-model',
          apiKey: 'sk-test-key-0123456789abcdef',
        }),
      },
    });
    await judging.close();
    expect(scored).toMatchObject({ pass: true, status: 'pass', reasons: [] });
    expect(scored.checks.map((check) => [check.check, check.status, check.score])).toEqual([
      ['calls', 'pass', 1],
      ['order', 'pass', 1],
      ['steps', 'pass', 1],
      ['never', 'pass', 1],
      ['judge', 'pass', 0.9],
    ]);
    const judgeRequest = upstream.received.at(-1);
    expect(judgeRequest?.headers['x-calltape-session']).toBeUndefined();
    expect(judgeRequest?.body).toContain('refunded the order total');

    // Offline: the upstream is gone, the recorded verdict answers, and the judge's round trip never joins the agent's run.
    await upstream.close();
    running.splice(running.indexOf(upstream), 1);
    const replayer = await start('http://127.0.0.1:1', cassette, { mode: 'replay' });
    const replayed = await scoreTrajectory(testCase, trajectory, {
      judges: { llm: createLlmJudge({ baseUrl: replayer.baseUrl, model: 'judge-model' }) },
    });
    expect(replayed).toEqual(scored);
    const reread = new SqliteStore(cassette, { readonly: true });
    expect(buildTrajectories(reread.interactions()).map((run) => run.sessionId)).toEqual([
      trajectory.sessionId,
    ]);
    reread.close();

    // A wrong expectation fails with the reason and the closest call.
    const wrong = await scoreTrajectory(
      { expect: { calls: [{ tool: 'issue_refund', arguments: { amount: 25 } }] } },
      trajectory,
    );
    expect(wrong).toMatchObject({
      pass: false,
      reasons: ['missing_call'],
      checks: [
        {
          message:
            'issue_refund was not called as expected (closest: step 2, score 0, value_mismatch)',
        },
      ],
    });
  });

  it('reports a judge model that cannot answer as a judge error, not as a fail of the agent', async () => {
    const upstream = await startScriptedUpstream([
      { kind: 'json', body: chatCompletion({ text: 'I think it passed.' }) },
      {
        kind: 'json',
        status: 503,
        body: { error: { message: 'overloaded', type: 'server_error', param: null, code: null } },
      },
    ]);
    running.push(upstream);
    const proxy = await start(upstream.url, join(temporaryFolder(), 'judge.sqlite'), {
      mode: 'record',
    });
    const judge = createLlmJudge({ baseUrl: proxy.baseUrl, model: 'judge-model' });
    const run = {
      sessionId: 's',
      turns: [],
      calls: [],
      finalText: 'done',
      counts: { rounds: 0, calls: 0, byTool: {} },
    };
    const notJson = await scoreTrajectory({ judge: { rubric: 'Be kind.' } }, run, {
      judges: { llm: judge },
    });
    expect(notJson).toMatchObject({
      status: 'error',
      checks: [
        {
          status: 'error',
          reasons: ['judge_error'],
          message: "LLM judge: the judge model's answer is not JSON: I think it passed.",
        },
      ],
    });
    const failed = await scoreTrajectory({ judge: { rubric: 'Be kind.' } }, run, {
      judges: { llm: judge },
    });
    expect(failed.status).toBe('error');
    expect(failed.checks[0]?.message).toMatch(
      /^LLM judge: the judge model answered 503: .*overloaded/,
    );
  });
});
