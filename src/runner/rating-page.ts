import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, relative } from 'node:path';
import { CalltapeError } from '../errors.js';
import { adminWriteAllowed } from '../live/admin-request-checks.js';
import { adminPageHeaders, noReferrer, type AdminExtension } from '../live/admin-routes.js';
import { pageAsset } from '../page-assets.js';
import { runsDatabaseFile } from './run-store.js';
import { listRuns, loadRunView, type RunSources } from './load-run-view.js';
import { defaultSet, type Rating } from '../ratings/rating.js';
import { RatingStore, ratingsFile } from '../ratings/rating-store.js';
import { pressKey, progressOf, startRater, type RaterState } from '../ratings/rater-session.js';
import { requireServedCassette, requireServedRun } from './served-cassette.js';

/** Where the rating page reads runs and writes ratings. */
export interface RatingPageSources extends RunSources {
  /** The ratings database (`calltape rate --ratings`). */
  readonly ratingsDb: string;
  /** The runs the page opens with when its address names none: the proxy's cassette. */
  readonly defaultTarget: string;
  /** The folder whose cassettes the page may open besides `defaultTarget` (the proxy's `recordings/`). */
  readonly recordings: string;
}

/** The rating page of a proxy started without sources: its cassette, and the files `calltape rate` uses by default. */
export function defaultRatingSources(cassette: string): RatingPageSources {
  const cwd = process.cwd();
  return {
    cwd,
    ratingsDb: ratingsFile(undefined, cwd),
    runsDb: runsDatabaseFile(undefined),
    defaultTarget: relative(cwd, cassette) || cassette,
    recordings: join(cwd, 'recordings'),
  };
}

/** What the page shows of a rating session: the same state the terminal rater keeps. */
export interface RatingPageState {
  readonly target: string;
  readonly set: string;
  readonly store: string;
  readonly runs: readonly { readonly run: string; readonly rating: Rating | null }[];
  /** The run being shown; null once every run is rated (or skipped past). */
  readonly run: string | null;
  readonly position: number;
  readonly done: boolean;
  readonly progress: ReturnType<typeof progressOf>;
  /** The rating this request stored, as stored. */
  readonly stored: Rating | null;
}

/** A pressed key, as the page posts it: the run it was pressed on and the note typed for it. */
interface KeyPress {
  readonly runs: string;
  readonly set: string;
  readonly run: string | null;
  readonly key: 'p' | 'f' | 's' | 'b';
  readonly note?: string;
  readonly rater?: string;
}

/** A key press body larger than this is refused: a note is text a person typed. */
const maxBodyBytes = 64 * 1024;

/**
 * The dashboard's rating page, `/calltape/rate`: the terminal rater in a browser. It lists runs
 * with `listRuns`, shows each with `loadRunView` and advances with `pressKey`, so both raters
 * see the same run and move the same way; each pass or fail is written to the ratings store
 * as it is given. Served behind the admin checks (host, token); a write must come from the
 * page's own origin as JSON, which a foreign page cannot send without CORS.
 */
export function createRatingPage(sources: RatingPageSources): AdminExtension {
  const served = { cwd: sources.cwd, own: sources.defaultTarget, recordings: sources.recordings };
  let store: RatingStore | undefined;
  // Opened at first use: a proxy nobody rates with never creates a ratings file.
  const ratings = (): RatingStore => (store ??= new RatingStore(sources.ratingsDb));
  return {
    pages: ['/calltape/rate'],
    handle(request, response, url) {
      const path = url.pathname;
      if (
        path !== '/calltape/rate' &&
        path !== '/calltape/api/rate' &&
        path !== '/calltape/api/rate/view'
      )
        return false;
      const reading = request.method === 'GET' || request.method === 'HEAD';
      if (path === '/calltape/rate' && reading) {
        response.writeHead(200, adminPageHeaders).end(pageAsset('rate.html'));
      } else if (path === '/calltape/api/rate/view' && reading) {
        answer(response, () => {
          const run = url.searchParams.get('run') ?? '';
          requireServedRun(run, served);
          return loadRunView(run, sources);
        });
      } else if (path === '/calltape/api/rate' && reading) {
        answer(response, () =>
          stateOf(
            startSession(
              url.searchParams.get('runs') || sources.defaultTarget,
              url.searchParams.get('set') || defaultSet,
            ),
            null,
          ),
        );
      } else if (path === '/calltape/api/rate' && request.method === 'POST') {
        if (!adminWriteAllowed(request.headers)) {
          sendError(
            response,
            403,
            'calltape: ratings are written by the rating page itself (same origin, JSON)',
            'calltape_forbidden_origin',
          );
          return true;
        }
        readBody(request).then(
          (body) => answer(response, () => press(parseKeyPress(body))),
          () =>
            sendError(
              response,
              413,
              `calltape: a rating request holds at most ${maxBodyBytes} bytes`,
              'invalid_request_error',
            ),
        );
      } else {
        response
          .writeHead(405, {
            allow: path === '/calltape/api/rate' ? 'GET, POST' : 'GET',
            'content-type': 'application/json',
            ...noReferrer,
          })
          .end(errorBody('calltape: method not allowed here', 'invalid_request_error'));
      }
      return true;
    },
    close() {
      store?.close();
    },
  };

  function startSession(
    target: string,
    set: string,
  ): { target: string; set: string; state: RaterState } {
    requireServedCassette(target, served);
    const runs = listRuns(target, sources);
    return {
      target,
      set,
      state: startRater(
        runs,
        new Map(
          ratings()
            .list(set)
            .map((rating) => [rating.run, rating]),
        ),
      ),
    };
  }

  function press(keyPress: KeyPress): RatingPageState {
    const session = startSession(keyPress.runs, keyPress.set);
    const position =
      keyPress.run === null ? session.state.runs.length : session.state.runs.indexOf(keyPress.run);
    if (position === -1)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${keyPress.run ?? ''}: the run is no longer in ${keyPress.runs}`,
      );
    const state: RaterState = {
      ...session.state,
      position,
      done: position >= session.state.runs.length,
      note: keyPress.note?.trim() || undefined,
    };
    const next = pressKey(state, keyPress.key, {
      now: () => new Date().toISOString(),
      ...(keyPress.rater ? { rater: keyPress.rater } : {}),
    });
    if (next.effect.kind === 'rate') ratings().put(keyPress.set, next.effect.rating);
    return stateOf(
      { ...session, state: next.state },
      next.effect.kind === 'rate' ? next.effect.rating : null,
    );
  }

  function stateOf(
    session: { target: string; set: string; state: RaterState },
    stored: Rating | null,
  ): RatingPageState {
    const { state } = session;
    return {
      target: session.target,
      set: session.set,
      store: relative(sources.cwd, ratings().path) || ratings().path,
      runs: state.runs.map((run) => ({ run, rating: state.ratings.get(run) ?? null })),
      run: state.runs[state.position] ?? null,
      position: state.position,
      done: state.done,
      progress: progressOf(state),
      stored,
    };
  }
}

function parseKeyPress(body: string): KeyPress {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new CalltapeError('CONFIG_INVALID', 'the rating request is not JSON');
  }
  const record =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const text = (name: string, limit: number): string | undefined => {
    const field = Object.hasOwn(record, name) ? record[name] : undefined;
    if (field === undefined || field === null) return undefined;
    if (typeof field !== 'string' || field.length > limit)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `the rating request's "${name}" must be text of at most ${limit} characters`,
      );
    return field;
  };
  const key = text('key', 1);
  if (key !== 'p' && key !== 'f' && key !== 's' && key !== 'b')
    throw new CalltapeError(
      'CONFIG_INVALID',
      'the rating request\'s "key" must be p (pass), f (fail), s (skip) or b (back)',
    );
  const runs = text('runs', 4096);
  if (!runs)
    throw new CalltapeError(
      'CONFIG_INVALID',
      'the rating request names no runs ("runs": a cassette or run:<id>)',
    );
  const note = text('note', 10_000);
  const rater = text('rater', 200);
  return {
    runs,
    set: text('set', 200) || defaultSet,
    run: text('run', 4096) ?? null,
    key,
    ...(note !== undefined ? { note } : {}),
    ...(rater ? { rater } : {}),
  };
}

/** Answers with the value as JSON; a CalltapeError is the caller's mistake (400), anything else ours (500). */
function answer(response: ServerResponse, compute: () => unknown): void {
  let body: string;
  try {
    body = JSON.stringify(compute());
  } catch (error) {
    const ours = !(error instanceof CalltapeError);
    sendError(
      response,
      ours ? 500 : 400,
      `calltape: ${(error as Error).message}`,
      ours ? 'calltape_error' : 'invalid_request_error',
    );
    return;
  }
  response
    .writeHead(200, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      ...noReferrer,
    })
    .end(body);
}

function sendError(response: ServerResponse, status: number, message: string, type: string): void {
  response
    .writeHead(status, { 'content-type': 'application/json', ...noReferrer })
    .end(errorBody(message, type));
}

function errorBody(message: string, type: string): string {
  return JSON.stringify({ error: { message, type } });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        request.removeAllListeners('data');
        request.resume();
        reject(new Error('too large'));
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
