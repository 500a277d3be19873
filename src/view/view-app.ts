import type { ServerResponse } from 'node:http';
import { noReferrer } from '../live/admin-gate.js';
import type { AdminExtension } from '../live/admin-routes.js';
import { appAssets, assetType } from './app-assets.js';
import { appPage, appPagePath, appPageHeaders } from './app-page.js';
import { answerApi, apiPrefix, type ApiAnswer, type ViewSources } from './view-api.js';

const sendJson = (response: ServerResponse, answer: ApiAnswer): void => {
  response
    .writeHead(answer.status, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...noReferrer,
    })
    .end(JSON.stringify(answer.body));
};

/**
 * calltape view's app as an admin surface: its page at `/calltape/app/`, the built assets beside
 * it and the JSON API under `/calltape/api/v1/`. Served behind the admin checks by both
 * `calltape view` and the proxy; it answers GET and HEAD only.
 */
export function createViewApp(sources: ViewSources): AdminExtension {
  return {
    pages: [appPagePath],
    handle(request, response, url) {
      const path = url.pathname;
      const api = path.startsWith(apiPrefix);
      if (!api && !path.startsWith(appPagePath)) return false;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.setHeader('allow', 'GET, HEAD');
        sendJson(response, {
          status: 405,
          body: {
            error: { message: 'calltape: view answers GET only', type: 'invalid_request_error' },
          },
        });
        return true;
      }
      if (api) {
        const segments = path.slice(apiPrefix.length).split('/').map(decodeSegment);
        sendJson(
          response,
          segments.includes(undefined)
            ? {
                status: 400,
                body: {
                  error: { message: 'calltape: malformed path', type: 'invalid_request_error' },
                },
              }
            : safely(() => answerApi(segments as string[], url.searchParams, sources)),
        );
        return true;
      }
      const { manifest, files } = appAssets();
      const name = path.slice(appPagePath.length);
      if (name === '') {
        response.writeHead(200, appPageHeaders).end(appPage(manifest));
        return true;
      }
      const file = files.get(name);
      if (file === undefined) {
        sendJson(response, {
          status: 404,
          body: { error: { message: 'calltape: no such file', type: 'not_found' } },
        });
        return true;
      }
      response
        .writeHead(200, {
          'content-type': assetType(name),
          // Hashed names: a file's content never changes under its name.
          'cache-control': 'public, max-age=31536000, immutable',
          'x-content-type-options': 'nosniff',
          ...noReferrer,
        })
        .end(file);
      return true;
    },
    close() {},
  };
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** An answer, or a 500 naming what failed (an unreadable runs database): a view never crashes on a file. */
function safely(answer: () => ApiAnswer): ApiAnswer {
  try {
    return answer();
  } catch (error) {
    return {
      status: 500,
      body: { error: { message: (error as Error).message, type: 'calltape_store_error' } },
    };
  }
}
