import { relative, sep } from 'node:path';
import { viewApiVersion, type ApiError, type RunsAnswer } from './api-types.js';
import {
  configurationsAnswer,
  runReferences,
  type ReferencedRun,
} from './configurations-answer.js';
import { caseAnswer, compareAnswer, runAnswer, storedRun } from './run-answers.js';
import { isPostgresUrl, printableDatabase } from '../database-url.js';
import { ViewRunsReader } from './view-runs-reader.js';

/** Where the API reads from. */
export interface ViewSources {
  /** The runs database (absolute). */
  readonly runsDb: string;
  /** The folder calltape view serves: the project whose files it may read. */
  readonly cwd: string;
}

/** An API answer: its status and JSON body. */
export interface ApiAnswer {
  readonly status: number;
  readonly body: object;
}

/** The prefix of every API path. */
export const apiPrefix = `/calltape/api/v${viewApiVersion}/`;

const defaultLimit = 200;
const maxLimit = 5000;

const failure = (status: number, message: string, type: string): ApiAnswer => ({
  status,
  body: { error: { message, type } } satisfies ApiError,
});

/**
 * Answers a `GET /calltape/api/v1/…` path (the part after the prefix, already split on `/` and
 * decoded) with its JSON; 404 for a path it does not know. Query values are read as data.
 */
export function answerApi(
  segments: readonly string[],
  query: URLSearchParams,
  sources: ViewSources,
): ApiAnswer {
  const [first, ...rest] = segments;
  if (first === 'runs' && rest.length === 0) return runsAnswer(query, sources);
  if (first === 'configurations' && rest.length === 0)
    return sideBySideAnswer(query.getAll('run'), sources);
  const unknown = failure(404, `calltape: no such API path: ${segments.join('/')}`, 'not_found');
  const [id, part, config, testId] = rest;
  if (first === 'runs' && (rest.length === 1 || (rest.length === 4 && part === 'cases')))
    return withRuns(sources, [id], ([stored], reader) => {
      if (config === undefined || testId === undefined)
        return { status: 200, body: runAnswer(stored, sources.cwd) };
      const answer = caseAnswer(stored, config, testId, {
        cwd: sources.cwd,
        runsDb: sources.runsDb,
        cassetteKey: reader.cassetteKey(stored.listing.id),
      });
      return answer === undefined
        ? failure(
            404,
            `calltape: run #${stored.listing.id} has no case ${config}/${testId}`,
            'not_found',
          )
        : { status: 200, body: answer };
    });
  if (first === 'compare' && rest.length === 2)
    return withRuns(sources, rest, ([before, after]) => ({
      status: 200,
      body: compareAnswer(before, after),
    }));
  return unknown;
}

/** Opens the runs database, finds the runs named by id, and answers with them; 404 for a missing one. */
function withRuns(
  sources: ViewSources,
  ids: readonly (string | undefined)[],
  answer: (runs: [StoredRunOf, StoredRunOf], reader: ViewRunsReader) => ApiAnswer,
): ApiAnswer {
  if (!ViewRunsReader.present(sources.runsDb))
    return failure(404, `calltape: no runs database at ${sources.runsDb}`, 'not_found');
  const reader = new ViewRunsReader(sources.runsDb);
  try {
    const found: StoredRunOf[] = [];
    for (const text of ids) {
      const id = Number(text);
      const run = /^\d{1,15}$/.test(text ?? '') ? storedRun(reader, id) : undefined;
      if (run === undefined)
        return failure(404, `calltape: no run #${String(text)} in the runs database`, 'not_found');
      found.push(run);
    }
    return answer([found[0] as StoredRunOf, (found[1] ?? found[0]) as StoredRunOf], reader);
  } finally {
    reader.close();
  }
}

type StoredRunOf = NonNullable<ReturnType<typeof storedRun>>;

/** The configurations of the runs named by `run` values side by side; 400 naming a bad value, 404 a missing run. */
function sideBySideAnswer(values: readonly string[], sources: ViewSources): ApiAnswer {
  const references = runReferences(values);
  if (typeof references === 'string')
    return failure(400, `calltape: ${references}`, 'invalid_request_error');
  if (!ViewRunsReader.present(sources.runsDb))
    return failure(404, `calltape: no runs database at ${sources.runsDb}`, 'not_found');
  const reader = new ViewRunsReader(sources.runsDb);
  try {
    const found: ReferencedRun[] = [];
    for (const reference of references) {
      const run = storedRun(reader, reference.id);
      if (run === undefined)
        return failure(404, `calltape: no run #${reference.id} in the runs database`, 'not_found');
      found.push({ reference, ...run });
    }
    const answer = configurationsAnswer(found);
    return typeof answer === 'string'
      ? failure(404, `calltape: ${answer}`, 'not_found')
      : { status: 200, body: answer };
  } finally {
    reader.close();
  }
}

function runsAnswer(query: URLSearchParams, sources: ViewSources): ApiAnswer {
  const limitText = query.get('limit');
  const limit = limitText === null ? defaultLimit : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit)
    return failure(
      400,
      `calltape: limit must be a whole number from 1 to ${maxLimit}`,
      'invalid_request_error',
    );
  const runs_db = databaseFacts(sources);
  const empty: RunsAnswer = {
    version: viewApiVersion,
    runs_db,
    runs: [],
    matched: 0,
    filters: { suites: [], configs: [], branches: [] },
  };
  if (!runs_db.present) return { status: 200, body: empty };
  const reader = new ViewRunsReader(sources.runsDb);
  try {
    const { runs, matched } = reader.runs({
      suite: query.get('suite') ?? undefined,
      config: query.get('config') ?? undefined,
      branch: query.get('branch') ?? undefined,
      limit,
    });
    return { status: 200, body: { ...empty, runs, matched, filters: reader.filterValues() } };
  } finally {
    reader.close();
  }
}

/** The runs database as answers name it: relative to the project when inside it, `/`-separated. */
function databaseFacts(sources: ViewSources): RunsAnswer['runs_db'] {
  if (isPostgresUrl(sources.runsDb))
    return { path: printableDatabase(sources.runsDb), present: true };
  const inside = relative(sources.cwd, sources.runsDb);
  const path = inside.startsWith('..') || inside === '' ? sources.runsDb : inside;
  return { path: path.split(sep).join('/'), present: ViewRunsReader.present(sources.runsDb) };
}
