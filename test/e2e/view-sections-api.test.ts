import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/config.js';
import { combineExtensions } from '../../src/live/admin-routes.js';
import { packageRoot } from '../../src/package-root.js';
import { RatingStore } from '../../src/ratings/rating-store.js';
import { createReviewApi } from '../../src/review/review-api.js';
import { createJudgesApi } from '../../src/runner/judges-api.js';
import { createRatingPage } from '../../src/runner/rating-page.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';
import { viewSectionErrors } from '../support/view-sections-schema.js';
import { startViewServer } from '../../src/view/view-server.js';
import { createViewSections } from '../../src/view/view-sections.js';

const token = 'view-sections-token-0123456789';
const bank = join(packageRoot, 'recordings/bank-demo.sqlite');
const folder = temporaryFolder();
const ratings = join(folder, 'ratings.sqlite');
const suiteFile = join(folder, 'drafts.yaml');
const suite = `name: bank
cases:
  - test_id: reviewed
    prompt: what is my balance?
    expected_tool: get_balance
  - test_id: gen-rent
    prompt: find my rent payments from March
    expected_tool: search_transactions
    review: pending
    provenance:
      source: generated
      tool: search_transactions
      kind: positive
  - test_id: gen-loan
    prompt: take out a loan for me
    never: [ execute_transfer ]
    review: pending
`;
const comparison = {
  ratings: 'ratings.sqlite',
  set: 'golden',
  judges_file: 'judges.yaml',
  cassette: null,
  mode: 'replay',
  runs: 2,
  rated_pass: 1,
  rated_fail: 1,
  best: null,
  judges: [],
};

let proxy: Awaited<ReturnType<typeof startTestProxy>> | undefined;
const origin = (): string => (proxy as NonNullable<typeof proxy>).url;

beforeAll(async () => {
  writeFileSync(suiteFile, suite);
  proxy = await startTestProxy(
    'http://127.0.0.1:9',
    { mode: 'passthrough', admin: { ...defaultConfig.admin, token } },
    {
      adminExtension: combineExtensions(
        createRatingPage({
          cwd: folder,
          ratingsDb: ratings,
          runsDb: join(folder, 'runs.sqlite'),
          defaultTarget: bank,
          recordings: folder,
        }),
        createReviewApi(['drafts.yaml'], folder),
        createJudgesApi(ratings, folder),
      ),
    },
  );
});
afterAll(async () => {
  await proxy?.close();
});

const admin = { authorization: `Bearer ${token}` };
async function get(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${origin()}${path}`, { headers: admin });
  return { status: response.status, body: await response.json() };
}
async function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${origin()}${path}`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
function storedRuns(): string[] {
  const store = new RatingStore(ratings, { readonly: true });
  try {
    return store.list('golden').map((rating) => rating.run);
  } finally {
    store.close();
  }
}

describe('the rate API (/calltape/api/v1/rate)', () => {
  it('answers the session and a run in their documented shapes, and stores a key pressed from the app', async () => {
    const session = await get('/calltape/api/v1/rate');
    expect(session.status).toBe(200);
    expect(viewSectionErrors('rateSession', session.body)).toEqual([]);
    expect(session.body).toMatchObject({
      run: `${bank}#TC-001`,
      progress: { rated: 0, total: 22 },
    });
    const view = await get(
      `/calltape/api/v1/rate/view?run=${encodeURIComponent(`${bank}#TC-001`)}`,
    );
    expect(viewSectionErrors('runView', view.body)).toEqual([]);
    const key = { runs: bank, run: `${bank}#TC-001`, key: 'p', note: 'right amount' };
    expect(viewSectionErrors('rateKeyRequest', key)).toEqual([]);
    const pressed = await post('/calltape/api/v1/rate', key, { origin: origin() });
    expect(pressed.status).toBe(200);
    expect(viewSectionErrors('rateSession', pressed.body)).toEqual([]);
    expect(pressed.body).toMatchObject({
      run: `${bank}#TC-002`,
      stored: { run: `${bank}#TC-001`, rating: 'pass', note: 'right amount' },
    });
    expect(storedRuns()).toEqual([`${bank}#TC-001`]);
  });

  it('refuses a rating posted from another origin (CSRF) or as a form, and stores nothing', async () => {
    const key = { runs: bank, run: `${bank}#TC-005`, key: 'f' };
    const foreign = await post('/calltape/api/v1/rate', key, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(viewSectionErrors('error', foreign.body)).toEqual([]);
    const form = await fetch(`${origin()}/calltape/api/v1/rate`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'text/plain' },
      body: JSON.stringify(key),
    });
    expect(form.status).toBe(403);
    const anonymous = await fetch(`${origin()}/calltape/api/v1/rate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(key),
    });
    expect(anonymous.status).toBe(401);
    expect(storedRuns()).not.toContain(`${bank}#TC-005`);
  });

  it('names the field of a malformed key press', async () => {
    const wrong = await post('/calltape/api/v1/rate', { runs: bank, key: 'x' });
    expect(wrong).toEqual({
      status: 400,
      body: {
        error: {
          message:
            'calltape: the rating request\'s "key" must be p (pass), f (fail), s (skip) or b (back)',
          type: 'invalid_request_error',
        },
      },
    });
  });

  it('redirects the first rating API to its v1 path, query kept (scripts keep working)', async () => {
    const moved = await fetch(`${origin()}/calltape/api/rate/view?run=x`, {
      headers: admin,
      redirect: 'manual',
    });
    expect(moved.status).toBe(308);
    expect(moved.headers.get('location')).toBe('/calltape/api/v1/rate/view?run=x');
    expect((await get('/calltape/api/rate')).body).toMatchObject({ target: bank });
  });
});

describe('the review API (/calltape/api/v1/review)', () => {
  it('lists the pending cases with what each expects', async () => {
    const listed = await get('/calltape/api/v1/review');
    expect(viewSectionErrors('reviewState', listed.body)).toEqual([]);
    expect(listed.body).toMatchObject({
      suites: [
        {
          file: 'drafts.yaml',
          cases: [
            { id: 'gen-rent', expects: expect.stringContaining('search_transactions') as string },
            { id: 'gen-loan', kind: 'negative' },
          ],
        },
      ],
    });
  });

  it('refuses a decision from another origin, one on a suite not under review, and leaves the file alone', async () => {
    const foreign = await post(
      '/calltape/api/v1/review',
      { suite: 'drafts.yaml', case: 'gen-rent', decision: 'accept' },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    const elsewhere = await post('/calltape/api/v1/review', {
      suite: '../other.yaml',
      case: 'gen-rent',
      decision: 'accept',
    });
    expect(elsewhere.status).toBe(400);
    expect(readFileSync(suiteFile, 'utf8')).toBe(suite);
  });

  it('accepts and rejects as calltape review does: the suite file changes, the answer lists what is left', async () => {
    const request = { suite: 'drafts.yaml', case: 'gen-rent', decision: 'accept' };
    expect(viewSectionErrors('reviewRequest', request)).toEqual([]);
    const accepted = await post('/calltape/api/v1/review', request, { origin: origin() });
    expect(accepted.status).toBe(200);
    expect(viewSectionErrors('reviewAnswer', accepted.body)).toEqual([]);
    expect(readFileSync(suiteFile, 'utf8')).toBe(suite.replace('    review: pending\n', ''));
    const rejected = await post('/calltape/api/v1/review', {
      suite: 'drafts.yaml',
      case: 'gen-loan',
      decision: 'reject',
    });
    expect(rejected.body).toMatchObject({ suites: [{ file: 'drafts.yaml', cases: [] }] });
    expect(readFileSync(suiteFile, 'utf8')).not.toContain('gen-loan');
  });

  it("redirects the dashboard's pending-cases path to it", async () => {
    const moved = await fetch(`${origin()}/calltape/api/pending`, {
      headers: admin,
      redirect: 'manual',
    });
    expect([moved.status, moved.headers.get('location')]).toEqual([308, '/calltape/api/v1/review']);
  });
});

describe('the judges API (/calltape/api/v1/judges)', () => {
  it('answers the comparisons calltape judges compare kept in the ratings database', async () => {
    const store = new RatingStore(ratings);
    store.putComparison({ at: '2026-12-03T10:00:00.000Z', report: comparison });
    store.close();
    const answer = await get('/calltape/api/v1/judges');
    expect(viewSectionErrors('judges', answer.body)).toEqual([]);
    expect(answer.body).toMatchObject({
      ratings: 'ratings.sqlite',
      comparisons: [{ at: '2026-12-03T10:00:00.000Z', report: comparison }],
    });
  });
});

describe('the staging API (/calltape/api/v1/staging)', () => {
  it('answers the shadow dashboard state, with where the feed and metrics are', async () => {
    const answer = await get('/calltape/api/v1/staging');
    expect(viewSectionErrors('staging', answer.body)).toEqual([]);
    expect(answer.body).toMatchObject({
      available: true,
      shadow: null,
      feed: '/calltape/feed',
      metrics: '/metrics',
    });
  });
});

describe('the old pages redirect to their app section', () => {
  const redirect = async (path: string): Promise<[number, string | null]> => {
    const response = await fetch(`${origin()}${path}`, { headers: admin, redirect: 'manual' });
    return [response.status, response.headers.get('location')];
  };

  it('sends the rating page to the Rate section, its runs, set and rater kept', async () => {
    expect(
      await redirect('/calltape/rate?runs=recordings%2Fa.sqlite&set=errors&rater=ana'),
    ).toEqual([302, '/calltape/app/#/rate?runs=recordings%2Fa.sqlite&set=errors&rater=ana']);
    expect(await redirect('/calltape/rate')).toEqual([302, '/calltape/app/#/rate']);
  });

  it('takes the token out of an old rating address first (a cookie), then redirects', async () => {
    const first = await fetch(`${origin()}/calltape/rate?token=${token}&rater=ana`, {
      redirect: 'manual',
    });
    expect([first.status, first.headers.get('location')]).toEqual([
      303,
      '/calltape/rate?rater=ana',
    ]);
    expect(await redirect('/calltape/rate?rater=ana')).toEqual([
      302,
      '/calltape/app/#/rate?rater=ana',
    ]);
  });

  it('leads every first address to its new place: /calltape/ to the app, the rating page to Rate, the first APIs to v1', async () => {
    const moved: [string, number, string][] = [
      ['/calltape', 301, '/calltape/'],
      ['/calltape/', 302, '/calltape/app/'],
      ['/calltape/?view=1', 302, '/calltape/app/'],
      ['/calltape/rate?set=errors', 302, '/calltape/app/#/rate?set=errors'],
      ['/calltape/api/rate?set=errors', 308, '/calltape/api/v1/rate?set=errors'],
      ['/calltape/api/rate/view?run=r1', 308, '/calltape/api/v1/rate/view?run=r1'],
      ['/calltape/api/pending', 308, '/calltape/api/v1/review'],
    ];
    for (const [path, status, location] of moved)
      expect([path, ...(await redirect(path))]).toEqual([path, status, location]);
    // The first dashboard's state path still answers the staging state itself.
    const state = await fetch(`${origin()}/calltape/api/state`, { headers: admin });
    expect(state.status).toBe(200);
    expect(await state.json()).toMatchObject({ available: true, feed: '/calltape/feed' });
  });
});

describe('calltape view without a proxy', () => {
  it('serves Rate, Review and Judges over the project files, and says how to get Staging', async () => {
    const server = await startViewServer({
      runsDb: join(folder, 'runs.sqlite'),
      cwd: folder,
      host: '127.0.0.1',
      port: 0,
      token: undefined,
      sections: createViewSections({
        cwd: folder,
        runsDb: join(folder, 'runs.sqlite'),
        ratingsDb: ratings,
        suites: ['drafts.yaml'],
      }),
    });
    try {
      const staging = (await (await fetch(`${server.origin}/calltape/api/v1/staging`)).json()) as {
        available: boolean;
        how: string;
      };
      expect(viewSectionErrors('staging', staging)).toEqual([]);
      expect(staging.available).toBe(false);
      expect(staging.how).toContain('calltape proxy with a policies file');
      const judges = await fetch(`${server.origin}/calltape/api/v1/judges`);
      expect(viewSectionErrors('judges', await judges.json())).toEqual([]);
      const foreign = await fetch(`${server.origin}/calltape/api/v1/review`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        body: JSON.stringify({ suite: 'drafts.yaml', case: 'gen-loan', decision: 'accept' }),
      });
      expect(foreign.status).toBe(403);
    } finally {
      await server.close();
    }
  });
});
