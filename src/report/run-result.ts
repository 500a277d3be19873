import type { CaseResult } from '../scoring/case-result.js';
import type { Price } from '../scoring/suite-types.js';
import type { RunBaseline } from './run-baseline.js';
import type { ReplayMissSummary } from './replay-miss-summary.js';

/** One quality gate evaluated on a run configuration. */
export interface GateResult {
  readonly gate: 'pass_rate' | 'mean_score' | 'per_tag' | 'per_tool' | 'max_regression';
  readonly run: string;
  /** The tag or tool of a per-tag / per-tool gate. */
  readonly subject: string | null;
  readonly threshold: number;
  /** The measured value (for max_regression: the drop in pass rate); null when nothing could be measured. */
  readonly actual: number | null;
  readonly pass: boolean;
  readonly message: string;
  /** A `pass_rate` gate with `confidence`: `actual` is the Wilson lower bound at this confidence. */
  readonly confidence?: number;
}

/** Per run configuration: pass rate, mean score and counts. */
export interface RunSummary {
  readonly run: string;
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly errors: number;
  /** Cases whose expected tool was not offered: neither passed nor failed. */
  readonly unreliable?: number;
  /** The cases pass_rate and mean_score count: all, or those not unreliable under `gates.unreliable: ignore` (absent in older reports). */
  readonly counted?: number;
  /** Passed share of the counted cases: the number the pass_rate gate checks. */
  readonly pass_rate: number;
  readonly mean_score: number;
}

/** A run configuration in a report: its summary, model, price and the tools it offered. */
export interface ConfigurationSummary extends RunSummary {
  readonly model: string | null;
  /** Tools offered to the model across the configuration's cases (absent in older reports). */
  readonly tools_offered?: readonly string[];
  /** US dollars per million tokens, from the suite; null when it gives none (absent in older reports). */
  readonly price?: Price | null;
}

/** A whole suite run, as every report renders it and the run store keeps it. */
export interface SuiteRunResult {
  readonly suite: string;
  readonly file: string;
  readonly mode: 'record' | 'replay' | 'auto' | 'score';
  readonly drive: 'direct' | 'agent' | 'cassette';
  readonly cassette: string;
  readonly started_at: string;
  readonly duration_ms: number;
  readonly runs: readonly ConfigurationSummary[];
  readonly cases: readonly CaseResult[];
  readonly gates: readonly GateResult[];
  /** Every gate held and no case errored. */
  readonly passed: boolean;
  /** The suite's draft cases (pending review or rejected): listed, never run, never in a gate. Absent when there are none. */
  readonly drafts?: readonly DraftListing[];
  /** The git commit and branch the run ran on (from the CI's variables, else git); absent in reports written before they were kept. */
  readonly git?: { readonly commit: string | null; readonly branch: string | null };
  /** The earlier run this one was compared with and what behaves differently; absent when there was none. */
  readonly baseline?: RunBaseline;
  /** Replay misses grouped by what changed in the requests, with the command that records them; absent when nothing missed. */
  readonly replay_misses?: ReplayMissSummary;
}

/** A draft case as a report lists it. */
export interface DraftListing {
  readonly test_id: string;
  readonly review: 'pending' | 'rejected';
}
