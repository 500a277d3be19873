import type { ServerResponse } from 'node:http';
import { noReferrer } from './admin-gate.js';

/** The app's page (`src/view/app-page.ts` serves it); its sections are `#/<section>` addresses. */
const appPage = '/calltape/app/';

/**
 * Where a page of the first admin surfaces now lives in the app: `/calltape/` (the first
 * dashboard's address) opens the app, whose sections include Staging (that dashboard); the
 * rating page (`/calltape/rate?runs=…&set=…&rater=…`) is the Rate section with the same
 * parameters. Undefined for any other path.
 */
export function appAddressOf(path: string, query: URLSearchParams): string | undefined {
  if (path === '/calltape/') return appPage;
  if (path === '/calltape/rate') {
    const kept = new URLSearchParams(query);
    kept.delete('token');
    const text = kept.toString();
    return `${appPage}#/rate${text === '' ? '' : `?${text}`}`;
  }
  return undefined;
}

/**
 * Answers an old page's address with a redirect to its app section (a bookmark, a link in a
 * runbook, the banner of an older proxy keep working); false for any other path.
 */
export function redirectOldPage(response: ServerResponse, url: URL): boolean {
  const address = appAddressOf(url.pathname, url.searchParams);
  if (address === undefined) return false;
  response.writeHead(302, { location: address, 'cache-control': 'no-store', ...noReferrer }).end();
  return true;
}
