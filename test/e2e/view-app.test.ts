import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { RunStore } from '../../src/runner/run-store.js';
import { createViewApp } from '../../src/view/view-app.js';
import { startViewServer, type ViewServer } from '../../src/view/view-server.js';
import { cases, runs, suiteRun } from '../support/configuration-runs.js';
import {
  chromiumAvailable,
  launchChromium,
  openOfflinePage,
} from '../support/headless-chromium.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

const folder = temporaryFolder();
const runsDb = join(folder, 'calltape-runs.sqlite');
/** Screenshots of each screen, kept for a person to look at (gitignored). */
const artifacts = join(packageRoot, 'test-artifacts', 'view');
let server: ViewServer | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const store = new RunStore(runsDb);
  store.save({ ...suiteRun(runs, cases), git: { commit: 'abc1234def', branch: 'main' } }, 0, '{}');
  store.save(
    {
      ...suiteRun(runs.slice(0, 1), cases),
      suite: 'other',
      passed: false,
      started_at: '2026-12-02T09:30:00.000Z',
    },
    1,
    '{}',
  );
  store.close();
  server = await startViewServer({
    runsDb,
    cwd: folder,
    host: '127.0.0.1',
    port: 0,
    token: undefined,
  });
  if (chromiumAvailable) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.skipIf(!chromiumAvailable)('calltape view in Chromium', () => {
  it('shows the app frame and the runs list, filters it, and logs no error', async () => {
    const origin = (server as ViewServer).origin;
    const { page, elsewhere, errors, close } = await openOfflinePage(browser as Browser, origin);
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    try {
      await page.goto((server as ViewServer).appUrl);
      const nav = page.getByRole('navigation', { name: 'Sections' });
      await expect
        .poll(() => nav.getByRole('link').allTextContents())
        .toEqual(['Runs', 'Rate', 'Review', 'Judges', 'Staging']);
      await expect
        .poll(() => nav.getByRole('link', { name: 'Runs' }).getAttribute('aria-current'))
        .toBe('page');
      const rows = page.getByRole('table').locator('tbody tr');
      await expect.poll(() => rows.count()).toBe(2);
      await page.screenshot({ path: join(artifacts, 'runs.png'), fullPage: true });
      await page.getByLabel('Suite').selectOption('other');
      await expect.poll(() => rows.count()).toBe(1);
      await expect.poll(() => rows.first().textContent()).toContain('#2');
      await nav.getByRole('link', { name: 'Staging' }).click();
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent())
        .toBe('Staging');
      expect(page.url()).toMatch(/#\/staging$/);
      expect(errors).toEqual([]);
      expect(consoleErrors).toEqual([]);
      expect(elsewhere).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('calltape view under the proxy', () => {
  it('serves the same app and API under /calltape/', async () => {
    const proxy = await startTestProxy(
      'http://127.0.0.1:9',
      { mode: 'passthrough' },
      {
        adminExtension: createViewApp({ runsDb, cwd: folder }),
      },
    );
    try {
      const page = await fetch(`${proxy.url}/calltape/app/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const answer = (await (await fetch(`${proxy.url}/calltape/api/v1/runs`)).json()) as {
        runs: unknown[];
      };
      expect(answer.runs).toHaveLength(2);
      // The dashboard keeps its place.
      expect((await fetch(`${proxy.url}/calltape/`)).status).toBe(200);
    } finally {
      await proxy.close();
    }
  });
});
