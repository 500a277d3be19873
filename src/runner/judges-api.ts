import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { answerAdminJson, refuseMethod } from '../live/admin-json.js';
import type { AdminExtension } from '../live/admin-routes.js';
import { RatingStore, type StoredComparison } from '../ratings/rating-store.js';

/** The judges section's API path. */
export const judgesApi = '/calltape/api/v1/judges';

/** What `GET /calltape/api/v1/judges` answers. */
export interface JudgesState {
  /** The ratings database the comparisons are kept in, as the project names it. */
  readonly ratings: string;
  /** The last comparison of each judges file with each set, newest first. */
  readonly comparisons: readonly StoredComparison[];
  /** What to run when there is none yet. */
  readonly how: string;
}

/**
 * The app's judges section API: the comparisons `calltape judges compare` kept in the ratings
 * database (agreement, κ, precision/recall of fails, flake, cost, every disagreement), read at
 * each request. Read-only; a missing database is no comparison yet, never created here.
 */
export function createJudgesApi(ratingsDb: string, cwd: string): AdminExtension {
  return {
    pages: [],
    handle(request, response, url) {
      if (url.pathname !== judgesApi) return false;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        refuseMethod(response, 'GET');
        return true;
      }
      answerAdminJson(response, (): JudgesState => {
        const shown = relative(cwd, ratingsDb) || ratingsDb;
        const how = `calltape judges compare --judges <judges.yaml> compares candidate judges with the ratings in ${shown} and keeps the result here.`;
        if (!existsSync(ratingsDb)) return { ratings: shown, comparisons: [], how };
        const store = new RatingStore(ratingsDb, { readonly: true });
        try {
          return { ratings: shown, comparisons: store.listComparisons(), how };
        } finally {
          store.close();
        }
      });
      return true;
    },
    close() {},
  };
}
