import type { ConversationRun } from './conversation-run.js';
import { roundsOfTurns } from './conversation-run.js';
import type { CaseResult, ConversationResult, TurnResult } from './case-result.js';
import { scoreCase, type CaseRun } from './score-case.js';
import { sliceTrajectory } from './slice-trajectory.js';
import type { ConversationTurn, RunConfig, Suite, SuiteCase } from './suite-types.js';
import type { JudgeRunners } from './trajectory/types.js';

/** The fields that make a turn (or case) checked rather than only said. */
const expectationFields = ['expected_tool', 'expected_calls', 'expect', 'never', 'judge'] as const;

/** Whether a turn says what its calls must show. */
export function turnHasExpectations(turn: ConversationTurn): boolean {
  return expectationFields.some((field) => Object.hasOwn(turn, field));
}

/**
 * A turn as a case of its own (its expectations, named after the case and turn), made once per
 * turn object: the scorers compile a case the first time they see the object.
 */
const turnCases = new WeakMap<ConversationTurn, SuiteCase>();
function turnCase(caseId: string, number: number, turn: ConversationTurn): SuiteCase {
  const known = turnCases.get(turn);
  if (known) return known;
  const { user: _user, ...expectations } = turn;
  const made: SuiteCase = { ...expectations, test_id: `${caseId} turn ${number}` };
  turnCases.set(turn, made);
  return made;
}

/**
 * Scores a conversation case: each turn's expectations over that turn's calls (its rounds are
 * the session's rounds that started from when it was said until the next turn was), with the
 * scorers a single-prompt case uses — a turn's `never` covers that turn only; the case's own
 * fields (and the suite's checks) over the whole conversation. The case passes when every turn
 * with expectations passes and the case-level checks pass; a turn with expectations the
 * conversation never reached fails. Its score is the mean of the turns' mean score and the
 * case-level score when the case has checks of its own, else the turns' mean score.
 */
export async function scoreConversation(
  suite: Suite,
  run: RunConfig,
  testCase: SuiteCase,
  index: number,
  outcome: CaseRun & { readonly conversation: ConversationRun },
  options: { readonly now: Date; readonly judges: JudgeRunners },
): Promise<CaseResult> {
  const { conversation } = outcome;
  const scripted = testCase.turns ?? [];
  const { turns: _turns, ...caseLevel } = testCase;
  const whole = await scoreCase(suite, run, caseLevel, index, outcome, options);
  const rounds = outcome.trajectory?.turns ?? [];
  const owner = roundsOfTurns(
    conversation.exchanges.map((exchange) => exchange.startedAt),
    rounds.map((round) => round.startedAt),
  );
  const calls = whole.calls.map((call) => ({
    ...call,
    user_turn: (owner[call.round - 1] ?? 0) + 1,
  }));
  // A turn is scored alone: the suite's checks are the whole conversation's, never a turn's.
  const turnSuite: Suite = { ...suite, checks: {} };
  const turns: TurnResult[] = [];
  for (const exchange of conversation.exchanges) {
    const position = exchange.index - 1;
    const mine = owner.flatMap((turn, round) => (turn === position ? [round] : []));
    const ids = new Set(mine.map((round) => rounds[round]?.interactionId));
    const said = {
      turn: exchange.index,
      user: exchange.user,
      reply: exchange.reply.text,
      calls: calls.filter((call) => call.user_turn === exchange.index),
      rounds: mine.length,
    };
    const expected = scripted[position];
    if (exchange.reply.error !== undefined) {
      turns.push({
        ...said,
        status: 'error',
        score: 0,
        call: null,
        trajectory: null,
        problems: [exchange.reply.error],
      });
      continue;
    }
    if (expected === undefined || !turnHasExpectations(expected) || outcome.error !== null) {
      turns.push({
        ...said,
        status: outcome.error === null ? 'pass' : 'error',
        score: outcome.error === null ? 1 : 0,
        call: null,
        trajectory: null,
        problems: [],
      });
      continue;
    }
    const scored = await scoreCase(
      turnSuite,
      run,
      turnCase(testCase.test_id, exchange.index, expected),
      index,
      {
        ...outcome,
        trajectory: outcome.trajectory && sliceTrajectory(outcome.trajectory, mine),
        stepsTrajectory: undefined,
        interactions: outcome.interactions.filter((interaction) => ids.has(interaction.id)),
        problems: [],
      },
      options,
    );
    turns.push({
      ...said,
      status: scored.status,
      score: scored.score,
      call: scored.call,
      trajectory: scored.trajectory,
      problems: scored.problems,
    });
  }
  const unsaid = scripted
    .slice(conversation.exchanges.length)
    .map((turn, at) => ({ turn, number: conversation.exchanges.length + at + 1 }))
    .filter(({ turn }) => turnHasExpectations(turn));
  const checked = turns.filter((turn, at) => {
    const expected = scripted[at];
    return turn.status === 'error' || (expected !== undefined && turnHasExpectations(expected));
  });
  const meanTurnScore =
    checked.length + unsaid.length === 0
      ? 1
      : checked.reduce((sum, turn) => sum + turn.score, 0) / (checked.length + unsaid.length);
  const allTurnsPass = unsaid.length === 0 && checked.every((turn) => turn.status === 'pass');
  const problems = [
    ...turns.flatMap((turn) => turn.problems.map((problem) => `turn ${turn.turn}: ${problem}`)),
    ...unsaid.map(
      ({ number }) =>
        `turn ${number}: never said (${conversation.ended_reason ?? conversation.ended_by}), so its expectations were not met`,
    ),
    ...(outcome.error === null ? whole.problems : []),
  ];
  const caseChecked = whole.call !== null || whole.trajectory !== null;
  const conversationError = conversation.ended_by === 'error' ? conversation.ended_reason : null;
  const error = whole.error ?? conversationError;
  const statuses = [whole.status, ...turns.map((turn) => turn.status)];
  const status: CaseResult['status'] =
    error !== null || statuses.includes('error')
      ? 'error'
      : statuses.includes('unreliable')
        ? 'unreliable'
        : statuses.includes('fail') || unsaid.length > 0
          ? 'fail'
          : 'pass';
  const score =
    error !== null ? 0 : caseChecked ? (meanTurnScore + whole.score) / 2 : meanTurnScore;
  const summary: ConversationResult = {
    turns,
    ended_by: conversation.ended_by,
    ended_reason: conversation.ended_reason,
    mean_turn_score: Math.round(meanTurnScore * 1e9) / 1e9,
    all_turns_pass: allTurnsPass,
  };
  return {
    ...whole,
    status,
    score: Math.round(score * 1e9) / 1e9,
    calls,
    problems: error !== null ? [error, ...problems.filter((line) => line !== error)] : problems,
    error,
    conversation: summary,
  };
}
