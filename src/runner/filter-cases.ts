import picomatch from 'picomatch';
import { CalltapeError } from '../errors.js';
import { expectedTools } from '../scoring/score-case.js';
import type { Gates, Suite, SuiteCase } from '../scoring/suite-types.js';

/**
 * The part of a suite `--filter` selects: a case stays when any pattern (a glob, `TC-01*`;
 * several comma-separated) matches its test id, one of its tags or a tool it expects. A filter
 * that selects nothing is a mistake, not an empty pass.
 */
export function filterSuite(suite: Suite, filter: string | undefined): Suite {
  if (filter === undefined) return suite;
  const patterns = filter
    .split(',')
    .map((pattern) => pattern.trim())
    .filter(Boolean);
  if (patterns.length === 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `command line: --filter: give a test id, tag or tool (got "${filter}")`,
    );
  const matches = picomatch(patterns, { nocase: false, dot: true });
  const cases = suite.cases.filter((testCase) => selectors(testCase).some((name) => matches(name)));
  if (cases.length === 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${suite.file}: --filter ${filter}: no case matches by test id, tag or tool`,
      'calltape test <suite> --list shows every case with its tags and tools.',
    );
  return { ...suite, cases, gates: narrowGates(suite.gates, cases) };
}

/**
 * The gates that still mean something on part of a suite: a per-tag or per-tool gate whose cases
 * were all filtered out is left out (it would fail for want of cases), and so is
 * max_regression (a part's pass rate says nothing against the whole suite's baseline).
 */
function narrowGates(gates: Gates, cases: readonly SuiteCase[]): Gates {
  const tags = new Set(cases.flatMap((testCase) => testCase.tags ?? []));
  const tools = new Set(cases.flatMap(expectedTools));
  const keep = (
    subjects: { readonly [name: string]: number } | undefined,
    present: ReadonlySet<string>,
  ): { [name: string]: number } | undefined => {
    if (subjects === undefined) return undefined;
    const kept = Object.fromEntries(Object.entries(subjects).filter(([name]) => present.has(name)));
    return Object.keys(kept).length > 0 ? kept : undefined;
  };
  const { max_regression: _dropped, per_tag, per_tool, ...rest } = gates;
  const perTag = keep(per_tag, tags);
  const perTool = keep(per_tool, tools);
  return {
    ...rest,
    ...(perTag ? { per_tag: perTag } : {}),
    ...(perTool ? { per_tool: perTool } : {}),
  };
}

/** What a filter can name a case by. */
export function selectors(testCase: SuiteCase): string[] {
  return [testCase.test_id, ...(testCase.tags ?? []), ...expectedTools(testCase)];
}
