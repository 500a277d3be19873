import type { TrajectoryResult } from './trajectory/types.js';
import type { ScoreResult } from './types.js';

/** What a case's run produced and how it scored: the unit every report is built from. */
export interface CaseResult {
  /** The run configuration (`default` when the suite has one). */
  readonly run: string;
  readonly test_id: string;
  /** Position in the suite (0-based): results keep suite order whatever the concurrency. */
  readonly index: number;
  readonly tags: readonly string[];
  /** The tools the case expects (for per-tool gates and tables). */
  readonly tools: readonly string[];
  /** The tools the model was offered in this run (from the captured requests, first offer first); absent in reports written before it was kept. */
  readonly tools_offered?: readonly string[];
  readonly session: string;
  /**
   * `error`: the case could not be run or judged (replay miss, upstream down, judge unavailable);
   * `unreliable`: a tool the case expects was not offered to the model in this run, so the model
   * could not have called it, or a tool its `never` names was not (so that check could not fail).
   * Neither is a verdict on the model.
   */
  readonly status: 'pass' | 'fail' | 'error' | 'unreliable';
  readonly score: number;
  /** The call scorer's verdict, for cases with expected calls. */
  readonly call: ScoreResult | null;
  /** The trajectory checks' verdict, for cases with expect / never / judge. */
  readonly trajectory: TrajectoryResult | null;
  /** The calls the run made, in order. */
  readonly calls: readonly {
    readonly name: string;
    readonly arguments: string;
    readonly mocked: boolean;
    /** Counting from 1: the round (LLM round trip) the call was made in. */
    readonly round: number;
    /** Conversation cases: the user turn (from 1) the call was made in answer to. */
    readonly user_turn?: number;
  }[];
  /** Why the case failed or errored, one line each, for humans. */
  readonly problems: readonly string[];
  readonly error: string | null;
  readonly duration_ms: number;
  /** LLM round trips the case's session made (reports before schema 2 called them `turns`). */
  readonly rounds: number;
  readonly tokens: { readonly input: number; readonly output: number };
  /** Agent mode: how the agent process ended and what it printed (truncated). */
  readonly agent: {
    readonly exit_code: number | null;
    readonly signal: string | null;
    readonly timed_out: boolean;
    readonly stdout: string;
    readonly stderr: string;
  } | null;
  /** Present when the case is a conversation (`turns:`): each user turn's verdict and how it ended. */
  readonly conversation?: ConversationResult;
  /**
   * The case ran several times (the suite's `repeats`): its samples and their tally. The case's
   * own fields are then the aggregate — status by `min_pass_rate`, score the samples' mean,
   * duration and tokens their sums — and its calls, problems and session are those of the first
   * sample whose status is the case's. Absent when the case ran once.
   */
  readonly samples?: CaseSamples;
}

/**
 * A conversation case's turns and ending. The case passes when every turn with expectations
 * passes and the case's own checks (over the whole conversation) pass; its score is the mean of
 * `mean_turn_score` and the case-level score when the case has checks of its own, else
 * `mean_turn_score`.
 */
export interface ConversationResult {
  /** Every turn said, in order; turns without expectations are listed too (status pass, score 1). */
  readonly turns: readonly TurnResult[];
  /** script: the scripted turns ran out; goal: the simulated user judged its goal reached; agent_ended: the agent ended it; max_turns: the turn limit was hit; error: the agent failed a turn. */
  readonly ended_by: 'script' | 'goal' | 'agent_ended' | 'max_turns' | 'error';
  /** Why it ended, in words (the agent's error, the judge's reason); null when the script ran out. */
  readonly ended_reason: string | null;
  /** Mean score of the turns with expectations (1 when none has any). */
  readonly mean_turn_score: number;
  /** Every turn with expectations passed. */
  readonly all_turns_pass: boolean;
}

/** One user turn of a conversation: what the user said, what the agent did and said, the verdict. */
export interface TurnResult {
  /** Counting from 1. */
  readonly turn: number;
  /** What the user said. */
  readonly user: string;
  /** What the agent said back; null when it said nothing. */
  readonly reply: string | null;
  /** The calls made in this turn (their `round` counts within the whole case). */
  readonly calls: CaseResult['calls'];
  /** LLM round trips made in this turn. */
  readonly rounds: number;
  readonly status: CaseResult['status'];
  readonly score: number;
  /** The call scorer's verdict on this turn's calls, for a turn with expected calls. */
  readonly call: ScoreResult | null;
  /** The trajectory checks' verdict on this turn's calls, for a turn with expect / never / judge. */
  readonly trajectory: TrajectoryResult | null;
  /** Why the turn failed or errored, one line each. */
  readonly problems: readonly string[];
}

/** A repeated case's samples: how many passed, whether they disagreed, and each one. */
export interface CaseSamples {
  /** Samples that passed. */
  readonly passed: number;
  /** Samples run. */
  readonly total: number;
  /** Some samples passed and some failed: noise, not a steady verdict. */
  readonly flaky: boolean;
  /** The share of samples that had to pass for the case to pass. */
  readonly min_pass_rate: number;
  /** Every sample, sample 1 first. */
  readonly results: readonly SampleResult[];
}

/** One sample of a repeated case: its own session (so its own recording) and verdict. */
export type SampleResult = Pick<
  CaseResult,
  | 'session'
  | 'status'
  | 'score'
  | 'calls'
  | 'problems'
  | 'error'
  | 'duration_ms'
  | 'rounds'
  | 'tokens'
> & {
  /** Counting from 1. */
  readonly sample: number;
};
