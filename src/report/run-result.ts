import type { CaseResult } from '../scoring/case-result.js';

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
}

/** Per run configuration: pass rate, mean score and counts. */
export interface RunSummary {
  readonly run: string;
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly errors: number;
  readonly pass_rate: number;
  readonly mean_score: number;
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
  readonly runs: readonly (RunSummary & { readonly model: string | null })[];
  readonly cases: readonly CaseResult[];
  readonly gates: readonly GateResult[];
  /** Every gate held and no case errored. */
  readonly passed: boolean;
  /** The suite's draft cases (pending review or rejected): listed, never run, never in a gate. Absent when there are none. */
  readonly drafts?: readonly DraftListing[];
}

/** A draft case as a report lists it. */
export interface DraftListing {
  readonly test_id: string;
  readonly review: 'pending' | 'rejected';
}
