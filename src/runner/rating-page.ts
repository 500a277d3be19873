import { join, relative } from 'node:path';
import { CalltapeError } from '../errors.js';
import { answerAdminJson, refuseMethod, takeAdminWrite } from '../live/admin-json.js';
import { noReferrer, type AdminExtension } from '../live/admin-routes.js';
import { redirectOldPage } from '../live/old-page-redirects.js';
import { jsonObjectOf } from '../request-fields.js';
import { parseKeyPress, type KeyPress } from '../ratings/key-press.js';
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

/** A key press body larger than this is refused: a note is text a person typed. */
const maxBodyBytes = 64 * 1024;

/** The rating session: GET its state, POST a key. */
export const rateApi = '/calltape/api/v1/rate';
/** One run as the rater shows it. */
export const rateViewApi = '/calltape/api/v1/rate/view';
/** The unversioned paths of the first rating page, answered by a redirect to their v1 path. */
const legacyApi = new Map([
  ['/calltape/api/rate', rateApi],
  ['/calltape/api/rate/view', rateViewApi],
]);

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
      const old = legacyApi.get(path);
      if (old !== undefined) {
        // The API moved under /api/v1/; a 308 keeps a script's POST a POST.
        response
          .writeHead(308, {
            location: `${old}${url.search}`,
            'cache-control': 'no-store',
            ...noReferrer,
          })
          .end();
        return true;
      }
      if (path !== '/calltape/rate' && path !== rateApi && path !== rateViewApi) return false;
      const reading = request.method === 'GET' || request.method === 'HEAD';
      if (path === '/calltape/rate' && reading) {
        redirectOldPage(response, url);
      } else if (path === rateViewApi && reading) {
        answerAdminJson(response, () => {
          const run = url.searchParams.get('run') ?? '';
          requireServedRun(run, served);
          return loadRunView(run, sources);
        });
      } else if (path === rateApi && reading) {
        answerAdminJson(response, () =>
          stateOf(
            startSession(
              url.searchParams.get('runs') || sources.defaultTarget,
              url.searchParams.get('set') || defaultSet,
            ),
            null,
          ),
        );
      } else if (path === rateApi && request.method === 'POST') {
        takeAdminWrite(request, response, { what: 'ratings', maxBytes: maxBodyBytes }, (body) =>
          press(parseKeyPress(jsonObjectOf(body, 'rating request'))),
        );
      } else {
        refuseMethod(response, path === rateApi ? 'GET, POST' : 'GET');
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
