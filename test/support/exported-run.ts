/** The API answers an exported run page (`calltape test --html`, `calltape view --export`) carries, by path. */
export function exportedAnswers(html: string): Record<string, any> {
  const data = /<script type="application\/json" id="calltape-data">([^<]*)<\/script>/.exec(
    html,
  )?.[1];
  if (data === undefined) throw new Error('not an exported calltape view page');
  return (JSON.parse(data) as { answers: Record<string, any> }).answers;
}

/** The exported run's cases, whole, in suite order. */
export function exportedCases(html: string): any[] {
  const answers = exportedAnswers(html);
  return Object.entries(answers)
    .filter(([path]) => path.includes('/cases/'))
    .map(([, answer]) => answer.result)
    .sort((left, right) => left.index - right.index);
}
