import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '../runner/run-store.js';
import { cases, runs, suiteRun } from '../../test/support/configuration-runs.js';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { viewApiErrors } from '../../test/support/view-api-schema.js';
import { startViewServer, type ViewServer } from './view-server.js';

const folder = temporaryFolder();
const runsDb = join(folder, 'calltape-runs.sqlite');
const token = 'view-token-0123456789';
let open: ViewServer | undefined;
let guarded: ViewServer | undefined;

beforeAll(async () => {
  const store = new RunStore(runsDb);
  store.save({ ...suiteRun(runs, cases), git: { commit: 'abc1234def', branch: 'main' } }, 0, '{}');
  store.save({ ...suiteRun(runs.slice(0, 1), cases), suite: 'other', passed: false }, 1, '{}');
  store.close();
  open = await startViewServer({
    runsDb,
    cwd: folder,
    host: '127.0.0.1',
    port: 0,
    token: undefined,
  });
  guarded = await startViewServer({ runsDb, cwd: folder, host: '127.0.0.1', port: 0, token });
});
afterAll(async () => {
  await open?.close();
  await guarded?.close();
});

const get = async (
  server: ViewServer | undefined,
  path: string,
  headers: Record<string, string> = {},
) => {
  const answer = await request(`${(server as ViewServer).origin}${path}`, { headers });
  const text = await answer.body.text();
  return { status: answer.statusCode, headers: answer.headers, text };
};

describe('calltape view API', () => {
  it('lists stored runs newest first, with git facts and configurations, as its schema says', async () => {
    const answer = await get(open, '/calltape/api/v1/runs');
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.text);
    expect(viewApiErrors('runs', body)).toEqual([]);
    expect(body.runs.map((run: { id: number }) => run.id)).toEqual([2, 1]);
    expect(body.runs[1]).toMatchObject({
      suite: 'side-by-side',
      git_commit: 'abc1234def',
      git_branch: 'main',
      passed: true,
    });
    expect(body.runs[1].configs.map((config: { name: string }) => config.name)).toEqual([
      'small',
      'bare',
    ]);
    expect(body.filters).toEqual({
      suites: ['other', 'side-by-side'],
      configs: ['bare', 'small'],
      branches: ['main'],
    });
    expect(body.runs_db).toEqual({ path: 'calltape-runs.sqlite', present: true });
  });

  it('filters runs by suite, run configuration and branch', async () => {
    const bySuite = JSON.parse((await get(open, '/calltape/api/v1/runs?suite=other')).text);
    expect(bySuite.runs.map((run: { id: number }) => run.id)).toEqual([2]);
    const byConfig = JSON.parse((await get(open, '/calltape/api/v1/runs?config=bare')).text);
    expect(byConfig.runs.map((run: { id: number }) => run.id)).toEqual([1]);
    const byBranch = JSON.parse(
      (await get(open, '/calltape/api/v1/runs?branch=main&limit=1')).text,
    );
    expect(byBranch).toMatchObject({ matched: 1 });
    expect(viewApiErrors('runs', byBranch)).toEqual([]);
  });

  it('answers an empty list, saying so, before any run is stored', async () => {
    const empty = await startViewServer({
      runsDb: join(folder, 'none.sqlite'),
      cwd: folder,
      host: '127.0.0.1',
      port: 0,
      token: undefined,
    });
    try {
      const body = JSON.parse((await get(empty, '/calltape/api/v1/runs')).text);
      expect(viewApiErrors('runs', body)).toEqual([]);
      expect(body.runs_db).toEqual({ path: 'none.sqlite', present: false });
    } finally {
      await empty.close();
    }
  });

  it('refuses a bad limit and an unknown path in its error shape', async () => {
    const limit = await get(open, '/calltape/api/v1/runs?limit=0');
    expect(limit.status).toBe(400);
    expect(viewApiErrors('error', JSON.parse(limit.text))).toEqual([]);
    const unknown = await get(open, '/calltape/api/v1/nothing');
    expect(unknown.status).toBe(404);
    expect(viewApiErrors('error', JSON.parse(unknown.text))).toEqual([]);
  });
});

describe('calltape view admin rules', () => {
  it('serves the app page with a CSP that allows only its own files and forbids framing', async () => {
    const page = await get(open, '/calltape/app/');
    expect(page.status).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers['x-frame-options']).toBe('DENY');
    const script = /src="(assets\/[^"]+\.js)"/.exec(page.text)?.[1];
    expect(script).toBeDefined();
    expect((await get(open, `/calltape/app/${script}`)).status).toBe(200);
  });

  it('serves no file but the built app (no path leads out of it)', async () => {
    for (const path of [
      '/calltape/app/manifest.json',
      '/calltape/app/..%2f..%2fpackage.json',
      '/calltape/app/assets/../../src/view/view-app.ts',
    ])
      expect((await get(open, path)).status, path).toBe(404);
  });

  it('answers only to a loopback Host (DNS rebinding)', async () => {
    const answer = await get(open, '/calltape/api/v1/runs', { host: 'evil.example' });
    expect(answer.status).toBe(421);
  });

  it('needs the token when one is set, and moves a token in the address into a cookie', async () => {
    expect((await get(guarded, '/calltape/api/v1/runs')).status).toBe(401);
    expect(
      (await get(guarded, '/calltape/api/v1/runs', { authorization: `Bearer ${token}` })).status,
    ).toBe(200);
    const opened = await get(guarded, `/calltape/app/?token=${token}`);
    expect(opened.status).toBe(303);
    expect(opened.headers['location']).toBe('/calltape/app/');
    expect(String(opened.headers['set-cookie'])).toContain('HttpOnly; SameSite=Strict');
    expect(guarded?.appUrl).toContain(`?token=${token}`);
  });

  it('answers writes with 405', async () => {
    const answer = await request(`${(open as ViewServer).origin}/calltape/api/v1/runs`, {
      method: 'POST',
      body: '{}',
    });
    expect(answer.statusCode).toBe(405);
    await answer.body.dump();
  });
});
