import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { combineExtensions } from '../../src/live/admin-routes.js';
import { packageRoot } from '../../src/package-root.js';
import { createReviewApi } from '../../src/review/review-api.js';
import { appAddressOf } from '../../src/live/old-page-redirects.js';
import { createViewApp } from '../../src/view/view-app.js';
import { createRatingPage } from '../../src/runner/rating-page.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

// Regression for issue #30: a framed rating page took a `fail` into the golden set with one
// click. Every page calltape serves forbids being framed, in CSP and in the older header.
const folder = temporaryFolder();
const extension = combineExtensions(
  createRatingPage({
    cwd: folder,
    ratingsDb: join(folder, 'ratings.sqlite'),
    runsDb: join(folder, 'runs.sqlite'),
    defaultTarget: join(packageRoot, 'recordings/bank-demo.sqlite'),
    recordings: join(folder, 'recordings'),
  }),
  createReviewApi([], folder),
  createViewApp({ runsDb: join(folder, 'runs.sqlite'), cwd: folder }),
);
/** Every page calltape serves: the app's (the dashboard and the rating page are its sections now). */
const pages = extension.pages.filter(
  (page) => appAddressOf(page, new URLSearchParams()) === undefined,
);
let proxy: Awaited<ReturnType<typeof startTestProxy>> | undefined;

beforeAll(async () => {
  proxy = await startTestProxy(
    'http://127.0.0.1:9',
    { mode: 'passthrough' },
    { adminExtension: extension },
  );
});
afterAll(async () => {
  await proxy?.close();
});

describe('no page calltape serves can be framed (issue #30)', () => {
  it('sends frame-ancestors none and X-Frame-Options DENY on every page', async () => {
    expect(pages).toEqual(['/calltape/app/']);
    for (const page of pages) {
      const response = await fetch(`${(proxy as NonNullable<typeof proxy>).url}${page}`);
      expect(response.status, page).toBe(200);
      expect(response.headers.get('content-type'), page).toMatch(/^text\/html/);
      expect(response.headers.get('content-security-policy'), page).toMatch(
        /(^|;)\s*frame-ancestors 'none'\s*(;|$)/,
      );
      expect(response.headers.get('x-frame-options'), page).toBe('DENY');
      await response.text();
    }
  });
});
