/**
 * Agreement statistics between a judge and people: Cohen's κ, the confusion matrix with
 * precision / recall / F1 for catching a fail, and rank correlations (Spearman ρ, Kendall τ-b)
 * for judges that give a score. Pure functions over plain arrays. Written here rather than
 * taken from a library: simple-statistics (the well-kept candidate) has neither κ nor Kendall τ.
 */

/** Counts with *fail* as the positive class: a judge's job is to catch bad runs. */
export interface Confusion {
  /** People said fail, the judge said fail. */
  readonly truePositive: number;
  /** People said pass, the judge said fail. */
  readonly falsePositive: number;
  /** People said fail, the judge said pass. */
  readonly falseNegative: number;
  /** Both said pass. */
  readonly trueNegative: number;
}

/**
 * Precision, recall and F1 of catching a fail; null where the denominator is zero. F1 is
 * 2·TP / (2·TP + FP + FN), so a judge that never says fail scores 0 when there were fails to
 * catch (as scikit-learn's f1_score does), and only a set with no fail, judged or rated, has none.
 */
export interface FailDetection {
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number | null;
}

export function confusionOf(truth: readonly boolean[], predicted: readonly boolean[]): Confusion {
  let truePositive = 0;
  let falsePositive = 0;
  let falseNegative = 0;
  let trueNegative = 0;
  truth.forEach((pass, index) => {
    const judged = predicted[index];
    if (!pass && judged === false) truePositive += 1;
    else if (pass && judged === false) falsePositive += 1;
    else if (!pass && judged === true) falseNegative += 1;
    else if (pass && judged === true) trueNegative += 1;
  });
  return { truePositive, falsePositive, falseNegative, trueNegative };
}

export function failDetection(confusion: Confusion): FailDetection {
  const { truePositive, falsePositive, falseNegative } = confusion;
  const precision =
    truePositive + falsePositive === 0 ? null : truePositive / (truePositive + falsePositive);
  const recall =
    truePositive + falseNegative === 0 ? null : truePositive / (truePositive + falseNegative);
  const f1Denominator = 2 * truePositive + falsePositive + falseNegative;
  const f1 = f1Denominator === 0 ? null : (2 * truePositive) / f1Denominator;
  return { precision, recall, f1 };
}

/**
 * Cohen's κ of two raters over the same items: (p_o − p_e) / (1 − p_e). When both raters gave
 * one and the same label to every item, p_e = 1 and κ is undefined; it is taken as 1 (perfect
 * agreement), and as 0 when they disagree with p_e = 1 (which cannot happen) — never NaN.
 */
export function cohenKappa<T>(first: readonly T[], second: readonly T[]): number {
  if (first.length !== second.length)
    throw new RangeError(`cohenKappa: ${first.length} labels against ${second.length}`);
  const count = first.length;
  if (count === 0) return 0;
  const agreed = first.filter((label, index) => label === second[index]).length / count;
  const marginals = new Map<T, [number, number]>();
  for (const label of first)
    marginals.set(label, [(marginals.get(label)?.[0] ?? 0) + 1, marginals.get(label)?.[1] ?? 0]);
  for (const label of second)
    marginals.set(label, [marginals.get(label)?.[0] ?? 0, (marginals.get(label)?.[1] ?? 0) + 1]);
  let expected = 0;
  for (const [left, right] of marginals.values()) expected += (left / count) * (right / count);
  if (expected >= 1) return agreed === 1 ? 1 : 0;
  return (agreed - expected) / (1 - expected);
}

/** Ranks from 1, ties given the mean of the ranks they span. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values
    .map((value, index) => ({ value, index }))
    .sort((left, right) => left.value - right.value);
  const ranks = new Array<number>(values.length).fill(0);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]?.value === order[start]?.value) end += 1;
    const rank = (start + end) / 2 + 1;
    for (let position = start; position <= end; position += 1)
      ranks[order[position]?.index ?? 0] = rank;
    start = end + 1;
  }
  return ranks;
}

/** Pearson's r; null when either side is constant (the correlation is undefined). */
export function pearson(first: readonly number[], second: readonly number[]): number | null {
  const count = first.length;
  if (count < 2 || second.length !== count) return null;
  const meanFirst = first.reduce((sum, value) => sum + value, 0) / count;
  const meanSecond = second.reduce((sum, value) => sum + value, 0) / count;
  let product = 0;
  let squaresFirst = 0;
  let squaresSecond = 0;
  for (let index = 0; index < count; index += 1) {
    const left = (first[index] ?? 0) - meanFirst;
    const right = (second[index] ?? 0) - meanSecond;
    product += left * right;
    squaresFirst += left * left;
    squaresSecond += right * right;
  }
  return squaresFirst === 0 || squaresSecond === 0
    ? null
    : product / Math.sqrt(squaresFirst * squaresSecond);
}

/** Spearman's ρ: Pearson's r of the average ranks (the tie-correct form). */
export function spearman(first: readonly number[], second: readonly number[]): number | null {
  return pearson(averageRanks(first), averageRanks(second));
}

/**
 * Kendall's τ-b: (concordant − discordant) / √((n₀ − n₁)(n₀ − n₂)), which corrects for ties on
 * either side (pass/fail ratings are nearly all ties). O(n²): golden sets are hundreds of runs.
 */
export function kendallTauB(first: readonly number[], second: readonly number[]): number | null {
  const count = first.length;
  if (count < 2 || second.length !== count) return null;
  let concordant = 0;
  let discordant = 0;
  let tiedFirst = 0;
  let tiedSecond = 0;
  for (let i = 0; i < count; i += 1) {
    for (let j = i + 1; j < count; j += 1) {
      const left = Math.sign((first[i] ?? 0) - (first[j] ?? 0));
      const right = Math.sign((second[i] ?? 0) - (second[j] ?? 0));
      if (left === 0) tiedFirst += 1;
      if (right === 0) tiedSecond += 1;
      if (left !== 0 && right !== 0) {
        if (left === right) concordant += 1;
        else discordant += 1;
      }
    }
  }
  const pairs = (count * (count - 1)) / 2;
  const denominator = Math.sqrt((pairs - tiedFirst) * (pairs - tiedSecond));
  return denominator === 0 ? null : (concordant - discordant) / denominator;
}
