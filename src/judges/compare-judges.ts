import type { Rating } from '../ratings/rating.js';
import {
  cohenKappa,
  confusionOf,
  failDetection,
  kendallTauB,
  spearman,
  type Confusion,
} from './agreement.js';
import { samplesDisagree } from './aggregate-samples.js';
import type { JudgeDefinition, JudgeOutcome } from './judge-definition.js';
import type { JudgeUsage } from './judge-definition.js';

/** A run where a judge and the people disagreed (or the judge could not answer). */
export interface Disagreement {
  readonly run: string;
  readonly rating: 'pass' | 'fail';
  /** The rater's note. */
  readonly note: string | null;
  /** null: the judge could not answer. */
  readonly judged: 'pass' | 'fail' | null;
  /** The judge's reason, or its error. */
  readonly reason: string | null;
}

/** One judge's agreement with the golden set. */
export interface JudgeAgreement {
  readonly name: string;
  readonly kind: JudgeDefinition['kind'];
  readonly model: string | null;
  /** Runs the judge answered (the figures below are over these). */
  readonly n: number;
  /** Runs it could not answer. */
  readonly errors: number;
  readonly accuracy: number | null;
  readonly kappa: number | null;
  /** Catching a fail (fail is the positive class). */
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number | null;
  readonly confusion: Confusion;
  /** Share of answered runs whose samples disagreed. */
  readonly flake_rate: number | null;
  /** Rank correlation of the judge's score with the ratings (pass 1, fail 0); null for pass/fail-only judges. */
  readonly spearman: number | null;
  readonly kendall_tau: number | null;
  readonly tokens: { readonly input: number; readonly output: number };
  /** US dollars; 0 for judges that ask no model, null when a model judge has no price. */
  readonly cost: number | null;
  readonly mean_latency_ms: number | null;
  readonly disagreements: readonly Disagreement[];
}

export interface JudgeComparison {
  readonly runs: number;
  readonly rated_pass: number;
  readonly rated_fail: number;
  readonly judges: readonly JudgeAgreement[];
  /** Highest κ, then lowest cost, then name; null when no judge answered any run. */
  readonly best: string | null;
}

/** Compares each judge's outcomes with the ratings. Pure: the same inputs give the same report. */
export function compareJudges(
  ratings: readonly Rating[],
  judges: readonly JudgeDefinition[],
  outcomes: ReadonlyMap<string, ReadonlyMap<string, JudgeOutcome>>,
  usage: ReadonlyMap<string, JudgeUsage>,
): JudgeComparison {
  const agreements = judges.map((judge) =>
    agreementOf(judge, ratings, outcomes.get(judge.name) ?? new Map(), usage.get(judge.name)),
  );
  const ranked = agreements
    .filter((agreement) => agreement.kappa !== null)
    .sort(
      (left, right) =>
        (right.kappa ?? 0) - (left.kappa ?? 0) ||
        (left.cost ?? Infinity) - (right.cost ?? Infinity) ||
        (left.name < right.name ? -1 : 1),
    );
  return {
    runs: ratings.length,
    rated_pass: ratings.filter((rating) => rating.rating === 'pass').length,
    rated_fail: ratings.filter((rating) => rating.rating === 'fail').length,
    judges: agreements,
    best: ranked[0]?.name ?? null,
  };
}

function agreementOf(
  judge: JudgeDefinition,
  ratings: readonly Rating[],
  outcomes: ReadonlyMap<string, JudgeOutcome>,
  usage: JudgeUsage | undefined,
): JudgeAgreement {
  const answered = ratings.filter((rating) => outcomes.get(rating.run)?.verdict != null);
  const truth = answered.map((rating) => rating.rating === 'pass');
  const judged = answered.map((rating) => outcomes.get(rating.run)?.verdict === 'pass');
  const confusion = confusionOf(truth, judged);
  const detection = failDetection(confusion);
  const n = answered.length;
  const scores = answered.map((rating) => outcomes.get(rating.run)?.score ?? null);
  const scored =
    n >= 2 &&
    scores.every((score) => score !== null) &&
    scores.some((score) => score !== 0 && score !== 1);
  const numeric = scores.map((score) => score ?? 0);
  const truthScores = truth.map((pass) => (pass ? 1 : 0));
  const flaky = answered.filter((rating) =>
    samplesDisagree(outcomes.get(rating.run)?.samples ?? []),
  ).length;
  const disagreements = ratings.flatMap((rating): Disagreement[] => {
    const outcome = outcomes.get(rating.run);
    if (outcome?.verdict === rating.rating) return [];
    return [
      {
        run: rating.run,
        rating: rating.rating,
        note: rating.note ?? null,
        judged: outcome?.verdict ?? null,
        reason: outcome?.error ?? outcome?.reason ?? null,
      },
    ];
  });
  const price = judge.kind === 'llm' ? judge.price : undefined;
  const tokens = { input: usage?.inputTokens ?? 0, output: usage?.outputTokens ?? 0 };
  return {
    name: judge.name,
    kind: judge.kind,
    model: judge.kind === 'llm' ? judge.model : null,
    n,
    errors: ratings.length - n,
    accuracy: n === 0 ? null : (confusion.truePositive + confusion.trueNegative) / n,
    kappa: n === 0 ? null : cohenKappa(truth, judged),
    ...detection,
    confusion,
    flake_rate: n === 0 ? null : flaky / n,
    spearman: scored ? spearman(numeric, truthScores) : null,
    kendall_tau: scored ? kendallTauB(numeric, truthScores) : null,
    tokens,
    cost:
      judge.kind !== 'llm'
        ? 0
        : price
          ? (tokens.input * price.input + tokens.output * price.output) / 1_000_000
          : null,
    mean_latency_ms: usage?.meanLatencyMs ?? null,
    disagreements,
  };
}
