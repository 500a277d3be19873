/** Which earlier run a run was compared with, and how it was chosen. */
export interface BaselineSource {
  /**
   * `recorded`: the run that last recorded the cassette (the default); `run`: a run id given with
   * `--baseline`; `branch`: the last run of a branch (`--baseline branch:<name>`); `file`: a JSON report.
   */
  readonly kind: 'recorded' | 'run' | 'branch' | 'file';
  /** How reports name it: `run #12`, `branch main (run #12)`, `reports/base.json`. */
  readonly label: string;
  /** Its id in the runs database; null for a JSON report file. */
  readonly run_id: number | null;
  readonly started_at: string | null;
  /** The git commit and branch it ran on, when known. */
  readonly commit: string | null;
  readonly branch: string | null;
}

/** A run compared with its baseline: which run that was, and what behaves differently, case by case. */
export interface RunBaseline extends BaselineSource {
  readonly diff: BehaviourDiff;
}

/** One argument of a call that both runs made, changed: `path` inside the arguments, old → new. */
export interface ArgumentChange {
  readonly tool: string;
  /** Which call of that tool (0-based): the n-th call of a tool is compared with the baseline's n-th. */
  readonly occurrence: number;
  /** JSON path inside the arguments (`city`, `items[0].qty`); empty for the whole (unparsable) text. */
  readonly path: string;
  /** JSON text of the baseline's value; null when the baseline had no such argument. */
  readonly before: string | null;
  /** JSON text of this run's value; null when this run has no such argument. */
  readonly after: string | null;
}

/** A number that moved between the baseline and this run. */
export interface Moved {
  readonly before: number;
  readonly after: number;
}

/** How one case behaves differently from its baseline. Present only when something changed. */
export interface CaseBehaviourChange {
  readonly run: string;
  readonly test_id: string;
  /** The verdict flipped: baseline status → this run's status, and which way. */
  readonly verdict: {
    readonly before: string;
    readonly after: string;
    readonly kind: 'regression' | 'fix' | 'unreliable' | 'other';
  } | null;
  /** Tool calls this run made that the baseline did not (by tool, beyond the baseline's count). */
  readonly calls_added: readonly string[];
  /** Tool calls the baseline made that this run did not. */
  readonly calls_removed: readonly string[];
  readonly arguments: readonly ArgumentChange[];
  /** Number of tool calls. */
  readonly steps: Moved | null;
  /** Number of rounds (LLM round trips). */
  readonly rounds: Moved | null;
  /** The case's pass rate (its samples' share, or 1 / 0 for a case run once). */
  readonly pass_rate: Moved | null;
  /** The first difference in words, whole (reports that show one line per case show this). */
  readonly first_difference: string;
}

/** A run configuration's pass rate, baseline → this run (unreliable cases counted in neither). */
export interface PassRateMove extends Moved {
  readonly run: string;
}

/** This run compared with its baseline, case by case (matched by run configuration and test id). */
export interface BehaviourDiff {
  readonly cases: readonly CaseBehaviourChange[];
  /** Cases present on both sides with nothing changed. */
  readonly unchanged: number;
  readonly pass_rates: readonly PassRateMove[];
  /** `run/test_id` (or test id, with one configuration) of cases only the baseline ran. */
  readonly only_in_baseline: readonly string[];
  /** Cases only this run ran. */
  readonly only_in_run: readonly string[];
}
