import type { Guidelines } from '../guidelines/guidelines.js';
import type { Rating } from '../ratings/rating.js';
import type { RunView } from '../ratings/run-view.js';
import type { Suite } from '../scoring/suite-types.js';
import type { Interaction } from '../trace/trace.js';

/** How several samples of one judge on one run become one verdict. */
export type SampleAggregate = 'majority' | 'all' | 'any' | 'mean';

/** A model asked through the proxy. */
export interface LlmJudgeDefinition {
  readonly kind: 'llm';
  readonly name: string;
  readonly model: string;
  readonly provider: 'openai' | 'anthropic';
  /** What the model is told a passing run does: a rubric, or the desired-behaviour guidelines. */
  readonly prompt:
    | { readonly kind: 'rubric'; readonly rubric: string }
    | { readonly kind: 'desired_behaviour'; readonly guidelines: Guidelines };
  readonly temperature: number;
  readonly samples: number;
  readonly aggregate: SampleAggregate;
  readonly passThreshold: number;
  readonly confirmOnFail: boolean;
  readonly maxTokens: number;
  /** Dollars per million tokens; undefined when not given (cost unknown). */
  readonly price: { readonly input: number; readonly output: number } | undefined;
}

/** A user module `judge(trajectory, testCase)`. */
export interface CodeJudgeDefinition {
  readonly kind: 'code';
  readonly name: string;
  /** Absolute path. */
  readonly module: string;
  readonly timeoutMs: number | undefined;
}

/** A suite's deterministic checks on the case with the run's session id. */
export interface CheckJudgeDefinition {
  readonly kind: 'check';
  readonly name: string;
  readonly suite: Suite;
  readonly now: Date;
}

export type JudgeDefinition = LlmJudgeDefinition | CodeJudgeDefinition | CheckJudgeDefinition;

/** One judge's answer on one run, after sampling and aggregation. */
export interface JudgeOutcome {
  /** null: the judge could not answer (see `error`). */
  readonly verdict: 'pass' | 'fail' | null;
  /** In [0, 1] when the judge gave a score (mean over samples). */
  readonly score: number | null;
  /** The verdict of every sample asked, in order (confirmation round included). */
  readonly samples: readonly boolean[];
  readonly reason: string | null;
  readonly error: string | null;
}

/** A rated run, loaded once and shown to every judge. */
export interface LoadedRun {
  readonly rating: Rating;
  readonly view: RunView;
  readonly interactions: readonly Interaction[];
}

/** What a judge's model round trips cost, as the cassette recorded them. */
export interface JudgeUsage {
  readonly requests: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Mean round-trip time of the recorded requests (ms); null when the judge asks no model. */
  readonly meanLatencyMs: number | null;
}
