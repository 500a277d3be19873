/**
 * Reports written before schema version 2 called LLM round trips turns (`cases[].turns`,
 * `cases[].calls[].turn`, samples alike, `baseline.diff.cases[].turns`); since conversations have
 * user turns, those are rounds now. Old reports still serve as baselines, shard parts and views:
 * this reads them under the new names. A value that is not an old report is returned as it is.
 */
export function upgradeReport(report: unknown): unknown {
  if (!isObject(report) || report['schema_version'] !== 1) return report;
  const upgraded: Record<string, unknown> = { ...report, schema_version: 2 };
  if (Array.isArray(report['cases'])) upgraded['cases'] = report['cases'].map(upgradeCaseResult);
  const baseline = report['baseline'];
  if (isObject(baseline) && isObject(baseline['diff']) && Array.isArray(baseline['diff']['cases']))
    upgraded['baseline'] = {
      ...baseline,
      diff: {
        ...baseline['diff'],
        cases: baseline['diff']['cases'].map(renamed('turns', 'rounds')),
      },
    };
  return upgraded;
}

/** One case result of an old report (or shard blob) under the new names; a new one is returned as it is. */
export function upgradeCaseResult(item: unknown): unknown {
  if (!isObject(item)) return item;
  const upgraded = renamed('turns', 'rounds')(item) as Record<string, unknown>;
  if (Array.isArray(item['calls'])) upgraded['calls'] = item['calls'].map(renamed('turn', 'round'));
  const samples = item['samples'];
  if (isObject(samples) && Array.isArray(samples['results']))
    upgraded['samples'] = { ...samples, results: samples['results'].map(upgradeCaseResult) };
  return upgraded;
}

function renamed(from: string, to: string): (value: unknown) => unknown {
  return (value) => {
    if (!isObject(value) || !Object.hasOwn(value, from) || Object.hasOwn(value, to)) return value;
    const { [from]: moved, ...rest } = value;
    return { ...rest, [to]: moved };
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
