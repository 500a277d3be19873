/** One side of a comparison: a run configuration's case results. */
export interface ComparedSide {
  readonly label: string;
  readonly cases: readonly {
    readonly test_id: string;
    readonly status: string;
    readonly score: number;
    readonly problem: string | null;
  }[];
}

export interface CaseChange {
  readonly test_id: string;
  readonly from: string;
  readonly to: string;
  readonly from_score: number;
  readonly to_score: number;
  /** Why it does not pass now (regressions), or why it did not before (fixes). */
  readonly problem: string | null;
}

export interface RunComparison {
  readonly a: string;
  readonly b: string;
  readonly pass_rate: { readonly a: number; readonly b: number };
  /** Passed in A, not in B. */
  readonly regressions: readonly CaseChange[];
  /** Not passing in A, passing in B. */
  readonly fixes: readonly CaseChange[];
  /** Same status, different score. */
  readonly score_changes: readonly CaseChange[];
  /**
   * Unreliable on either side (its expected tool was not offered there): neither a regression
   * nor a fix, since the model could not have called the tool — listed apart.
   */
  readonly unreliable: readonly CaseChange[];
  readonly only_in_a: readonly string[];
  readonly only_in_b: readonly string[];
}

/** What changed between two runs (or two run configurations), case by case, matched by test_id. */
export function compareRuns(a: ComparedSide, b: ComparedSide): RunComparison {
  const before = new Map(a.cases.map((item) => [item.test_id, item]));
  const after = new Map(b.cases.map((item) => [item.test_id, item]));
  const regressions: CaseChange[] = [];
  const fixes: CaseChange[] = [];
  const scoreChanges: CaseChange[] = [];
  const unreliable: CaseChange[] = [];
  for (const next of b.cases) {
    const previous = before.get(next.test_id);
    if (!previous) continue;
    const change = {
      test_id: next.test_id,
      from: previous.status,
      to: next.status,
      from_score: previous.score,
      to_score: next.score,
    };
    if (previous.status === 'unreliable' || next.status === 'unreliable') {
      if (previous.status !== next.status) unreliable.push({ ...change, problem: next.problem });
    } else if (previous.status === 'pass' && next.status !== 'pass')
      regressions.push({ ...change, problem: next.problem });
    else if (previous.status !== 'pass' && next.status === 'pass')
      fixes.push({ ...change, problem: previous.problem });
    else if (Math.abs(previous.score - next.score) > 1e-9)
      scoreChanges.push({ ...change, problem: next.problem });
  }
  // As in the summaries: unreliable cases count in no pass rate.
  const rate = (side: ComparedSide): number => {
    const counted = side.cases.filter((item) => item.status !== 'unreliable');
    return counted.length === 0
      ? 1
      : Math.round(
          (counted.filter((item) => item.status === 'pass').length / counted.length) * 1e6,
        ) / 1e6;
  };
  return {
    a: a.label,
    b: b.label,
    pass_rate: { a: rate(a), b: rate(b) },
    regressions,
    fixes,
    score_changes: scoreChanges,
    unreliable,
    only_in_a: a.cases.filter((item) => !after.has(item.test_id)).map((item) => item.test_id),
    only_in_b: b.cases.filter((item) => !before.has(item.test_id)).map((item) => item.test_id),
  };
}
