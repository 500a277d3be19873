import { describe, expect, it } from 'vitest';
import { trajectory, type CallSpec } from '../../test/support/trajectory.js';
import type { ConversationRun } from './conversation-run.js';
import { expectedTools, type CaseRun } from './score-case.js';
import { scoreConversation } from './score-conversation.js';
import type { RunConfig, Suite, SuiteCase } from './suite-types.js';

const run: RunConfig = {
  name: 'default',
  model: 'm',
  system: undefined,
  tools: [],
  schemas: {},
  price: undefined,
};
const suite = {
  file: 's.yaml',
  name: 's',
  runs: [run],
  mocks: [],
  cassette: 'c.sqlite',
  checks: {},
  defaults: {},
  gates: {},
  cases: [],
  drafts: [],
} as unknown as Suite;
const options = { now: new Date(0), judges: {} };

/** A conversation whose turn i (from 0) made the rounds listed in `perTurn[i]`; rounds start at their index. */
function conversationRun(
  perTurn: readonly (readonly (readonly CallSpec[])[])[],
  replies: readonly (string | null)[] = [],
): CaseRun & { conversation: ConversationRun } {
  const whole = trajectory(perTurn.flat());
  let round = 0;
  const exchanges = perTurn.map((rounds, at) => {
    const startedAt = round - 0.5;
    round += rounds.length;
    return { index: at + 1, user: `u${at + 1}`, reply: { text: replies[at] ?? null }, startedAt };
  });
  return {
    session: 's',
    trajectory: whole,
    interactions: [],
    error: null,
    durationMs: 1,
    agent: null,
    problems: [],
    conversation: { exchanges, ended_by: 'script', ended_reason: null },
  };
}

const refundCase: SuiteCase = {
  test_id: 'refund',
  turns: [
    { user: 'u1', never: ['issue_refund'] },
    { user: 'u2', expect: { calls: [{ tool: 'get_order', arguments: { id: 'A-17' } }] } },
    { user: 'u3' },
    { user: 'u4', expect: { calls: ['issue_refund'] } },
  ],
};

describe('scoreConversation', () => {
  it('scores each turn over its own calls: a turn passes or fails on what it did, and calls name their turn', async () => {
    const result = await scoreConversation(
      suite,
      run,
      refundCase,
      0,
      conversationRun(
        [[[]], [[['get_order', { id: 'A-17' }]], []], [[]], [[['issue_refund', { id: 'A-17' }]]]],
        ['which order?', 'found it', null, 'refunded'],
      ),
      options,
    );
    expect(result.status).toBe('pass');
    expect(result.score).toBe(1);
    expect(
      result.conversation?.turns.map((turn) => [
        turn.turn,
        turn.user,
        turn.reply,
        turn.rounds,
        turn.status,
      ]),
    ).toEqual([
      [1, 'u1', 'which order?', 1, 'pass'],
      [2, 'u2', 'found it', 2, 'pass'],
      [3, 'u3', null, 1, 'pass'],
      [4, 'u4', 'refunded', 1, 'pass'],
    ]);
    expect(result.calls.map((call) => [call.name, call.round, call.user_turn])).toEqual([
      ['get_order', 2, 2],
      ['issue_refund', 5, 4],
    ]);
    expect(result.conversation).toMatchObject({
      ended_by: 'script',
      mean_turn_score: 1,
      all_turns_pass: true,
    });
  });

  it("a turn's never covers that turn only, and a failing turn fails the case naming the turn", async () => {
    // The refund comes in turn 2 instead of turn 4: turn 1's never is met, turn 2's lookup is missing, turn 4 called nothing.
    const result = await scoreConversation(
      suite,
      run,
      refundCase,
      0,
      conversationRun([[[]], [[['issue_refund']]], [[]], [[]]]),
      options,
    );
    expect(result.status).toBe('fail');
    expect(result.conversation?.turns.map((turn) => turn.status)).toEqual([
      'pass',
      'fail',
      'pass',
      'fail',
    ]);
    expect(result.conversation?.all_turns_pass).toBe(false);
    expect(result.problems.some((line) => line.startsWith('turn 2: calls:'))).toBe(true);
    expect(result.problems.some((line) => line.startsWith('turn 4: calls:'))).toBe(true);
    expect(result.problems.some((line) => line.startsWith('turn 1:'))).toBe(false);
  });

  it('case-level checks cover the whole conversation, and the score is the mean of the turns and the case', async () => {
    const whole: SuiteCase = { ...refundCase, never: ['issue_refund'] };
    const result = await scoreConversation(
      suite,
      run,
      whole,
      0,
      conversationRun([[[]], [[['get_order', { id: 'A-17' }]]], [[]], [[['issue_refund']]]]),
      options,
    );
    expect(result.conversation?.all_turns_pass).toBe(true);
    expect(result.conversation?.mean_turn_score).toBe(1);
    expect(result.status).toBe('fail');
    expect(result.score).toBe((1 + (result.trajectory?.score ?? NaN)) / 2);
    expect(
      result.problems.some((line) => line.startsWith('calls:') || line.startsWith('never')),
    ).toBe(true);
  });

  it('a turn the conversation never reached fails the case when it has expectations; an agent error is an error', async () => {
    const early = conversationRun([[[]], [[['get_order', { id: 'A-17' }]]]]);
    const ended = await scoreConversation(
      suite,
      run,
      refundCase,
      0,
      {
        ...early,
        conversation: {
          ...early.conversation,
          ended_by: 'agent_ended',
          ended_reason: 'the agent ended turn 2',
        },
      },
      options,
    );
    expect(ended.status).toBe('fail');
    expect(ended.problems).toContain(
      'turn 4: never said (the agent ended turn 2), so its expectations were not met',
    );
    const crashed = conversationRun([[[]]]);
    const failed = await scoreConversation(
      suite,
      run,
      refundCase,
      0,
      {
        ...crashed,
        conversation: {
          exchanges: [
            {
              index: 1,
              user: 'u1',
              reply: { text: null, error: 'the agent crashed' },
              startedAt: -0.5,
            },
          ],
          ended_by: 'error',
          ended_reason: 'turn 1: the agent crashed',
        },
      },
      options,
    );
    expect(failed).toMatchObject({ status: 'error', error: 'turn 1: the agent crashed', score: 0 });
    expect(failed.conversation?.turns[0]).toMatchObject({
      status: 'error',
      problems: ['the agent crashed'],
    });
  });

  // Regression: the per-tool table said "(no tool expected)" for a case whose expectations are all in its turns.
  it("counts a conversation's turns' expected tools among the case's, for per-tool gates and tables", () => {
    const testCase = {
      test_id: 'refund',
      turns: [
        { user: 'Refund my order' },
        { user: 'A-17', expected_tool: 'get_order' },
        { user: 'yes', expect: { calls: ['issue_refund'] } },
      ],
      expect: { calls: ['get_order'] },
    } as unknown as SuiteCase;
    expect(expectedTools(testCase)).toEqual(['get_order', 'issue_refund']);
  });
});
