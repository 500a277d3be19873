import { createHash } from 'node:crypto';
import type { SuiteRunResult } from '../report/run-result.js';
import {
  configurationsPath,
  viewApiVersion,
  type ApiError,
  type ConfigurationsAnswer,
  type RunListing,
  type RunsAnswer,
} from './api-types.js';
import { appAssets } from './app-assets.js';
import { CalltapeError } from '../errors.js';
import { configurationsAnswer } from './configurations-answer.js';
import { answerApi } from './view-api.js';
import { caseAnswer, compareAnswer, runAnswer, storedRun } from './run-answers.js';
import { ViewRunsReader } from './view-runs-reader.js';

/** Where an exported run's cassette and project are (to read its recordings, read-only). */
export interface ExportPlace {
  readonly cwd: string;
  readonly runsDb: string;
  readonly cassetteKey: string | null;
}

/** A run's listing made from its report alone (a run not stored, or stored under `id`). */
export function listingOf(report: SuiteRunResult, id: number, exitCode: number): RunListing {
  return {
    id,
    suite: report.suite,
    mode: report.mode,
    drive: report.drive,
    started_at: report.started_at,
    duration_ms: report.duration_ms,
    passed: report.passed,
    exit_code: exitCode,
    git_commit: report.git?.commit ?? null,
    git_branch: report.git?.branch ?? null,
    configs: report.runs.map((run) => ({
      name: run.run,
      model: run.model,
      total: run.total,
      passed: run.passed,
      failed: run.failed,
      errors: run.errors,
      unreliable: run.unreliable ?? 0,
      pass_rate: run.pass_rate,
      mean_score: run.mean_score,
    })),
  };
}

/**
 * Every API answer the app needs to show one run without a server, by the path it asks for:
 * the runs list (this run alone), the run, its configurations side by side when it has
 * several, each of its cases, and the comparison with its
 * baseline when the baseline is in `reader`.
 */
export function exportAnswers(
  stored: { readonly listing: RunListing; readonly report: SuiteRunResult },
  place: ExportPlace,
  reader?: ViewRunsReader,
): Record<string, object> {
  const { listing, report } = stored;
  const answers: Record<string, object> = Object.create(null) as Record<string, object>;
  answers['runs'] = runsOnly([listing]);
  answers[`runs/${listing.id}`] = runAnswer(stored, place.cwd);
  const sideBySide = configurationsAnswer([
    { reference: { id: listing.id, config: undefined }, ...stored },
  ]);
  if (report.runs.length > 1 && typeof sideBySide !== 'string')
    answers[configurationsPath([String(listing.id)])] = sideBySide;
  for (const item of report.cases) {
    const answer = caseAnswer(stored, item.run, item.test_id, place);
    if (answer)
      answers[
        `runs/${listing.id}/cases/${encodeURIComponent(item.run)}/${encodeURIComponent(item.test_id)}`
      ] = answer;
  }
  const baseline = report.baseline?.run_id;
  const before = baseline == null || reader === undefined ? undefined : storedRun(reader, baseline);
  if (before) answers[`compare/${before.listing.id}/${listing.id}`] = compareAnswer(before, stored);
  return answers;
}

/** The runs list of an exported file: the runs it holds. */
function runsOnly(listings: readonly RunListing[]): RunsAnswer {
  const distinct = (values: readonly (string | null)[]): string[] =>
    [...new Set(values.filter((value) => value !== null))].sort();
  return {
    version: viewApiVersion,
    runs_db: { path: 'this file', present: true },
    runs: listings,
    matched: listings.length,
    filters: {
      suites: distinct(listings.map((listing) => listing.suite)),
      configs: distinct(
        listings.flatMap((listing) => listing.configs.map((config) => config.name)),
      ),
      branches: distinct(listings.map((listing) => listing.git_branch)),
    },
  };
}

/** JSON inside a `<script>` element: `<`, `>` and `&` escaped, so no string in it can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

const hash = (text: string): string =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * One run as a self-contained HTML file: the app's script and stylesheet inlined, its API
 * answers embedded as JSON, no request to anything (its CSP allows only its own inline script
 * and style, by hash, and no connection). Opens on the run's screen; works from a CI artifact.
 */
export function exportPage(answers: Record<string, object>, start: string): string {
  const { manifest, files } = appAssets();
  const script = (files.get(manifest.script) ?? Buffer.alloc(0))
    .toString('utf8')
    .replaceAll('</script', '<\\/script');
  const style = (files.get(manifest.style) ?? Buffer.alloc(0)).toString('utf8');
  const data = scriptJson({ start, answers });
  const csp = `default-src 'none'; script-src ${hash(script)}; style-src ${hash(style)}; img-src data:; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<title>calltape view · exported run</title>
<style>${style}</style>
<script type="application/json" id="calltape-data">${data}</script>
<script type="module">${script}</script>
</head>
<body><div id="app"></div></body>
</html>
`;
}

/**
 * The exported page of one run: a stored run by id (`calltape view --export`), or a run just
 * finished (`calltape test --html`, with the id it was stored under, 0 when it was not). The
 * runs database, when there, supplies the baseline's comparison.
 */
export function exportRun(
  report: SuiteRunResult,
  run: { readonly id: number; readonly exitCode: number },
  place: { readonly cwd: string; readonly runsDb: string },
): string {
  const reader = ViewRunsReader.present(place.runsDb)
    ? new ViewRunsReader(place.runsDb)
    : undefined;
  try {
    const listing =
      (run.id > 0 ? reader?.run(run.id) : undefined) ?? listingOf(report, run.id, run.exitCode);
    const answers = exportAnswers(
      { listing, report },
      { ...place, cassetteKey: run.id > 0 ? (reader?.cassetteKey(run.id) ?? null) : null },
      reader,
    );
    return exportPage(answers, `#/runs/${listing.id}`);
  } finally {
    reader?.close();
  }
}

/**
 * Stored runs' configurations side by side as a self-contained HTML file (`calltape compare …
 * --html`): the app opened on the side-by-side screen, with the same answer the API gives.
 * `references` are `12` or `12:small`; a missing run or configuration is a config error.
 */
export function exportConfigurations(
  place: { readonly cwd: string; readonly runsDb: string },
  references: readonly string[],
): string {
  const path = configurationsPath(references);
  const answer = answerApi(
    ['configurations'],
    new URLSearchParams(path.slice(path.indexOf('?') + 1)),
    place,
  );
  if (answer.status !== 200)
    throw new CalltapeError('CONFIG_INVALID', (answer.body as ApiError).error.message);
  const sideBySide = answer.body as ConfigurationsAnswer;
  return exportPage(
    { runs: runsOnly(sideBySide.runs), [path]: sideBySide },
    `#/configurations/${references.map(encodeURIComponent).join('/')}`,
  );
}
