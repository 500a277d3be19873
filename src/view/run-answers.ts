import { caseChangeOf } from '../report/behaviour-diff-text.js';
import type { SuiteRunResult } from '../report/run-result.js';
import { behaviourDiff } from '../runner/behaviour-diff.js';
import type { CaseResult } from '../scoring/case-result.js';
import { shellCommand } from '../shell-command.js';
import {
  viewApiVersion,
  type CaseAnswer,
  type CaseRow,
  type CompareAnswer,
  type RunAnswer,
  type RunListing,
} from './api-types.js';
import { caseRecording, runCassette, shownPath } from './case-recording.js';
import type { ViewRunsReader } from './view-runs-reader.js';

/** A stored run: its listing and its JSON report. */
interface StoredRun {
  readonly listing: RunListing;
  readonly report: SuiteRunResult;
}

/** A run by id, or undefined when the runs database has none. */
export function storedRun(reader: ViewRunsReader, id: number): StoredRun | undefined {
  const listing = reader.run(id);
  const report = listing === undefined ? undefined : reader.report(id);
  return listing === undefined || report === undefined ? undefined : { listing, report };
}

const caseKey = (run: string, testId: string): string => JSON.stringify([run, testId]);

/** The run screen's answer: the run, its gates, its cases in suite order, its baseline and misses. */
export function runAnswer({ listing, report }: StoredRun, cwd: string): RunAnswer {
  const changes = new Map(
    (report.baseline?.diff.cases ?? []).map((change) => [
      caseKey(change.run, change.test_id),
      change.first_difference,
    ]),
  );
  return {
    version: viewApiVersion,
    run: listing,
    file: shownPath(report.file, cwd),
    cassette: shownPath(report.cassette, cwd),
    gates: report.gates,
    cases: report.cases.map((item) => caseRow(item, changes.get(caseKey(item.run, item.test_id)))),
    baseline: report.baseline ?? null,
    replay_misses: report.replay_misses ?? null,
  };
}

function caseRow(item: CaseResult, change: string | undefined): CaseRow {
  return {
    run: item.run,
    test_id: item.test_id,
    status: item.status,
    score: item.score,
    tags: item.tags,
    tools: item.tools,
    called: item.calls.map((call) => call.name),
    samples: item.samples
      ? { passed: item.samples.passed, total: item.samples.total, flaky: item.samples.flaky }
      : null,
    problem: item.problems[0] ?? item.error ?? null,
    duration_ms: item.duration_ms,
    change: change ?? null,
  };
}

/** The case screen's answer; undefined when the run has no such case. */
export function caseAnswer(
  stored: StoredRun,
  config: string,
  testId: string,
  where: { readonly cwd: string; readonly runsDb: string; readonly cassetteKey: string | null },
): CaseAnswer | undefined {
  const { listing, report } = stored;
  const result = report.cases.find((item) => item.run === config && item.test_id === testId);
  if (result === undefined) return undefined;
  const cassette = runCassette(report.cassette, where.cassetteKey, where.runsDb, where.cwd);
  return {
    version: viewApiVersion,
    run: listing,
    result,
    change: caseChangeOf(report.baseline, config, testId) ?? null,
    recording: caseRecording(cassette, result.session, where.cwd),
    rerun_command: shellCommand([
      'calltape',
      report.mode === 'score' ? 'score' : 'test',
      ...(report.mode === 'score' ? ['--suite'] : []),
      shownPath(report.file, where.cwd),
      '--filter',
      testId,
      ...(report.mode === 'score' ? [] : ['--mode', report.mode]),
    ]),
  };
}

/** Two runs compared: the later one's behaviour against the earlier's, and its replay misses. */
export function compareAnswer(before: StoredRun, after: StoredRun): CompareAnswer {
  return {
    version: viewApiVersion,
    before: before.listing,
    after: after.listing,
    diff: behaviourDiff(before.report.cases, after.report.cases),
    replay_misses: after.report.replay_misses ?? null,
  };
}
