import { resolve } from 'node:path';
import { answerAdminJson, refuseMethod, takeAdminWrite } from '../live/admin-json.js';
import { noReferrer, type AdminExtension } from '../live/admin-routes.js';
import { jsonObjectOf } from '../request-fields.js';
import { reviewDrafts } from '../suites/review-drafts.js';
import { readPendingCases, shownSuiteName, type PendingCasesState } from './pending-cases-page.js';
import { parseReviewDecision, type ReviewDecision } from './review-decision.js';

/** The pending cases: GET lists them, POST accepts or rejects one. */
export const reviewApi = '/calltape/api/v1/review';
/** The dashboard's read-only listing of the first version, redirected to `reviewApi` (same answer). */
const legacyPendingApi = '/calltape/api/pending';

/** What a decision answers: what was written, and the suites as they now are. */
export interface ReviewAnswer extends PendingCasesState {
  readonly decided: { readonly suite: string; readonly case: string; readonly decision: string };
}

/** A decision body larger than this is refused: it names a file and a case. */
const maxBodyBytes = 16 * 1024;

/**
 * The app's review section API over the suites `files` (as given, relative to `cwd`): `GET`
 * lists their pending drafts (read at each request, so a terminal review shows at once), `POST`
 * accepts or rejects one with `calltape review`'s own writer, so the suite file changes exactly
 * as `calltape review --accept/--reject` changes it. Writes take the admin token and the app's
 * own origin (see `takeAdminWrite`); only the listed suites can be written.
 */
export function createReviewApi(files: readonly string[], cwd: string): AdminExtension {
  return {
    pages: [],
    handle(request, response, url) {
      const path = url.pathname;
      if (path === legacyPendingApi) {
        response
          .writeHead(308, { location: reviewApi, 'cache-control': 'no-store', ...noReferrer })
          .end();
        return true;
      }
      if (path !== reviewApi) return false;
      if (request.method === 'GET' || request.method === 'HEAD')
        answerAdminJson(response, () => readPendingCases(files, cwd));
      else if (request.method === 'POST')
        takeAdminWrite(
          request,
          response,
          { what: 'review decisions', maxBytes: maxBodyBytes },
          (body) => decide(parseReviewDecision(jsonObjectOf(body, 'review request'), shownFiles())),
        );
      else refuseMethod(response, 'GET, POST');
      return true;
    },
    close() {},
  };

  /** The suites as the listing names them: a decision names one of these. */
  function shownFiles(): string[] {
    return files.map((file) => shownSuiteName(file, cwd));
  }

  function decide(decision: ReviewDecision): ReviewAnswer {
    const index = shownFiles().indexOf(decision.suite);
    const path = resolve(cwd, files[index] ?? decision.suite);
    reviewDrafts(
      path,
      {
        accept: decision.decision === 'accept' ? [decision.case] : [],
        reject: decision.decision === 'reject' ? [decision.case] : [],
        keepRejected: decision.keepRejected,
      },
      cwd,
    );
    return {
      decided: { suite: decision.suite, case: decision.case, decision: decision.decision },
      ...readPendingCases(files, cwd),
    };
  }
}
