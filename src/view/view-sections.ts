import { join } from 'node:path';
import { answerAdminJson, refuseMethod } from '../live/admin-json.js';
import { combineExtensions, type AdminExtension } from '../live/admin-routes.js';
import { stagingApi, stagingElsewhere } from '../live/staging-state.js';
import { createReviewApi } from '../review/review-api.js';
import { createJudgesApi } from '../runner/judges-api.js';
import { createRatingPage } from '../runner/rating-page.js';

/** What `calltape view` rates, reviews and reads judge comparisons from. */
export interface ViewSectionSources {
  readonly cwd: string;
  readonly runsDb: string;
  /** The ratings database (`--ratings`). */
  readonly ratingsDb: string;
  /** The suites whose pending cases the Review section lists (`--suites`). */
  readonly suites: readonly string[];
}

/**
 * The Rate, Review and Judges APIs as `calltape view` serves them: the same handlers the proxy
 * serves, over the project's files. Asked before the app's read-only API, since Rate and Review
 * take writes.
 */
export function createViewSections(sources: ViewSectionSources): AdminExtension {
  return combineExtensions(
    createRatingPage({
      cwd: sources.cwd,
      runsDb: sources.runsDb,
      ratingsDb: sources.ratingsDb,
      // The proxy's default cassette, as `calltape rate` with no proxy would open it.
      defaultTarget: join('recordings', 'calltape.sqlite'),
      recordings: join(sources.cwd, 'recordings'),
    }),
    createReviewApi(sources.suites, sources.cwd),
    createJudgesApi(sources.ratingsDb, sources.cwd),
  );
}

/** `calltape view`'s Staging answer: staging lives in a proxy, and this says how to open it. */
export const stagingElsewhereApi: AdminExtension = {
  pages: [],
  handle(request, response, url) {
    if (url.pathname !== stagingApi) return false;
    if (request.method === 'GET' || request.method === 'HEAD')
      answerAdminJson(response, () => stagingElsewhere);
    else refuseMethod(response, 'GET');
    return true;
  },
  close() {},
};
