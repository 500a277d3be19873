import { relative } from 'node:path';
import { CalltapeError } from '../../errors.js';
import {
  loadBaseline,
  type BaselineTarget,
  type LoadedBaseline,
} from '../../runner/load-baseline.js';
import { expectedTools } from '../../scoring/score-case.js';
import type { Suite } from '../../scoring/suite-types.js';
import { shellCommand } from '../../shell-command.js';

/** `--list`: what would run, one case per line with what a filter can select it by. */
export function listCases(suite: Suite, cwd: string): string {
  const lines = suite.cases.map((testCase) => {
    const tags = testCase.tags?.length ? `  tags: ${testCase.tags.join(', ')}` : '';
    const tools = expectedTools(testCase);
    return `  ${testCase.test_id}${tags}${tools.length ? `  tools: ${tools.join(', ')}` : ''}\n`;
  });
  const runs =
    suite.runs.length > 1
      ? ` × ${suite.runs.length} runs (${suite.runs.map((run) => run.name).join(', ')})`
      : '';
  const shown = relative(cwd, suite.file) || suite.file;
  const drafts =
    suite.drafts.length > 0
      ? `  + ${suite.drafts.length} draft case(s), not run (calltape review ${shellCommand([shown])})\n`
      : '';
  return `${shown}: ${suite.cases.length} case(s)${runs} · cassette ${relative(cwd, suite.cassette) || suite.cassette}\n${lines.join('')}${drafts}`;
}

/** The scoring clock: --now, else the suite's pinned `now`, else the time of the run. */
export function clock(now: string | undefined, pinned: Date | undefined): Date {
  if (now === undefined) return pinned ?? new Date();
  const date = new Date(now);
  if (Number.isNaN(date.getTime()))
    throw new CalltapeError(
      'CONFIG_INVALID',
      `command line: --now: not an ISO 8601 date-time (got "${now}")`,
    );
  return date;
}

/**
 * The baseline a suite run compares itself with (`--baseline`, else the run that last recorded
 * its cassette), and the pass rates the max_regression gate reads: only from a baseline the user
 * named, so a gate never silently measures against a run nobody chose.
 */
export function baseline(
  flag: string | undefined,
  target: BaselineTarget,
  database: string,
): {
  readonly loaded: LoadedBaseline | undefined;
  readonly gate: { baseline?: ReadonlyMap<string, number> };
} {
  const loaded = loadBaseline(flag, target, database);
  return { loaded, gate: flag !== undefined && loaded ? { baseline: loaded.rates } : {} };
}

/** What a suite's baseline is found by: its name, cassette and run configurations. */
export function baselineTarget(suite: Suite): BaselineTarget {
  return {
    suite: suite.name,
    cassette: suite.cassette,
    runs: suite.runs.map((run) => ({ run: run.name, model: run.model ?? null })),
  };
}
