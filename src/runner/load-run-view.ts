import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { readInteractions } from '../cassette/sqlite/read-interactions.js';
import { missingCassetteHint } from '../cassette/missing-cassette-hint.js';
import { CalltapeError } from '../errors.js';
import type { SuiteRunResult } from './run-suite.js';
import { RunStore } from './run-store.js';
import { upgradeReport } from '../report/upgrade-report.js';
import { judgeSessionPrefix } from '../trace/build-trajectories.js';
import type { Interaction } from '../trace/trace.js';
import { parseRunReference, type RunReference } from '../ratings/rating.js';
import { buildRunView, type RunView } from '../ratings/run-view.js';

/** Where stored test runs are read from (a `run:<id>/…` reference). */
export interface RunSources {
  readonly cwd: string;
  readonly runsDb: string;
}

/**
 * Loads the run a reference names. A run that no longer exists (cassette deleted, session or
 * stored run gone) is a CONFIG_INVALID error naming the reference and what is missing.
 */
export function loadRunView(run: string, sources: RunSources): RunView {
  const reference = parseRunReference(run);
  if (!reference)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `"${run}" is not a run: write <cassette>#<session id> or run:<id>/<session>`,
    );
  const { cassette, session } = locate(reference, run, sources);
  const view = buildRunView(run, readInteractions(cassette, { sessionId: session }));
  if (!view)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${run}: the run no longer exists: ${cassette} has no session "${session}"`,
    );
  return view;
}

/**
 * The runs a rating session walks through: every agent session of a cassette (judge round
 * trips left out) sorted by id, or every case of a stored test run in suite order.
 */
export function listRuns(target: string, sources: RunSources): string[] {
  const stored = /^run:(\d+)$/.exec(target);
  if (stored) {
    const report = storedReport(Number(stored[1]), sources, target);
    return report.cases.map((item) => `run:${stored[1]}/${item.session}`);
  }
  const cassette = resolve(sources.cwd, target);
  if (!existsSync(cassette))
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${target}: no such cassette`,
      missingCassetteHint(cassette, 'calltape record --cassette <name> -- <your agent>'),
    );
  const sessions: string[] = [];
  for (const interaction of readInteractions(cassette)) {
    if (
      !interaction.sessionId.startsWith(judgeSessionPrefix) &&
      !sessions.includes(interaction.sessionId)
    )
      sessions.push(interaction.sessionId);
  }
  // Session ids sort the way people number them (TC-2 before TC-10), whatever order they ran in.
  return sessions
    .sort((left, right) => left.localeCompare(right, 'en', { numeric: true }))
    .map((session) => `${target}#${session}`);
}

/** The interactions of a run (judges that read the trace, not the view). */
export function loadRunInteractions(run: string, sources: RunSources): Interaction[] {
  const reference = parseRunReference(run);
  if (!reference) throw new CalltapeError('CONFIG_INVALID', `"${run}" is not a run`);
  const { cassette, session } = locate(reference, run, sources);
  return readInteractions(cassette, { sessionId: session });
}

function locate(
  reference: RunReference,
  run: string,
  sources: RunSources,
): { cassette: string; session: string } {
  if (reference.kind === 'session') {
    const cassette = resolve(sources.cwd, reference.cassette);
    if (!existsSync(cassette))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${run}: the run no longer exists: no cassette ${cassette}`,
      );
    return { cassette, session: reference.session };
  }
  const report = storedReport(reference.runId, sources, run);
  const found = report.cases.find((item) => item.session === reference.session);
  if (!found)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${run}: the run no longer exists: stored run #${reference.runId} has no case "${reference.session}"`,
    );
  const cassette = resolve(sources.cwd, report.cassette);
  if (!existsSync(cassette))
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${run}: the run no longer exists: no cassette ${cassette}`,
    );
  return { cassette, session: found.session };
}

function storedReport(id: number, sources: RunSources, what: string): SuiteRunResult {
  const store = new RunStore(sources.runsDb, { readonly: true });
  try {
    const report = store.report(id);
    if (report === undefined)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${what}: the run no longer exists: no run #${id} in ${sources.runsDb}`,
      );
    return upgradeReport(JSON.parse(report)) as SuiteRunResult;
  } finally {
    store.close();
  }
}
