import type { CaseResult } from '../../src/scoring/case-result.js';
import type { CaseAnswer, RunAnswer } from '../../src/view/api-types.js';

/** The API answers an exported run page (`calltape test --html`, `calltape view --export`) carries, by path. */
export function exportedAnswers(html: string): Record<string, unknown> {
  const data = /<script type="application\/json" id="calltape-data">([^<]*)<\/script>/.exec(
    html,
  )?.[1];
  if (data === undefined) throw new Error('not an exported calltape view page');
  return (JSON.parse(data) as { answers: Record<string, unknown> }).answers;
}

/** The exported run's own answer (its listing, gates and case rows). */
export function exportedRun(html: string): RunAnswer {
  const found = Object.entries(exportedAnswers(html)).find(([path]) => /^runs\/\d+$/.test(path));
  if (!found) throw new Error('the exported page holds no run');
  return found[1] as RunAnswer;
}

/** The exported run's cases, whole, in suite order. */
export function exportedCases(html: string): CaseResult[] {
  return Object.entries(exportedAnswers(html))
    .filter(([path]) => path.includes('/cases/'))
    .map(([, answer]) => (answer as CaseAnswer).result)
    .sort((left, right) => left.index - right.index);
}
