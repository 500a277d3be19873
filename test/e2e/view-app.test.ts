import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import type { SuiteRunResult } from '../../src/report/run-result.js';
import { exportRun } from '../../src/view/export-page.js';
import { createViewApp } from '../../src/view/view-app.js';
import { ViewRunsReader } from '../../src/view/view-runs-reader.js';
import { startViewServer, type ViewServer } from '../../src/view/view-server.js';
import {
  chromiumAvailable,
  launchChromium,
  openOfflinePage,
} from '../support/headless-chromium.js';
import { accessibilityViolations } from '../support/accessibility-violations.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';
import { storeViewRuns } from '../support/view-runs.js';

const folder = temporaryFolder();
const runsDb = join(folder, 'calltape-runs.sqlite');
/** Screenshots of each screen, kept for a person to look at (gitignored). */
const artifacts = join(packageRoot, 'test-artifacts', 'view');
let server: ViewServer | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  storeViewRuns(runsDb);
  // Served from the package folder, so the bank demo's cassette is one of the project's files.
  server = await startViewServer({
    runsDb,
    cwd: packageRoot,
    host: '127.0.0.1',
    port: 0,
    token: 'view-token-0123456789',
  });
  if (chromiumAvailable) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Waits for a screen to show something: a page fetches and renders before it does (a loaded machine may take a while). */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

describe.skipIf(!chromiumAvailable)('calltape view in Chromium', () => {
  it(
    'walks runs → run → case → compare with the keyboard-reachable links, accessibly, with no error',
    { timeout: 90_000 },
    async () => {
      const origin = (server as ViewServer).origin;
      const { page, elsewhere, errors, close } = await openOfflinePage(browser as Browser, origin);
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      try {
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto((server as ViewServer).appUrl);
        const nav = page.getByRole('navigation', { name: 'Sections' });
        await poll(() => nav.getByRole('link').allTextContents()).toEqual([
          'Runs',
          'Rate',
          'Review',
          'Judges',
          'Staging',
        ]);
        const rows = page.locator('table.runs tbody tr');
        await poll(() => rows.count()).toBe(3);
        // Focus order: the skip link first, then the sections.
        await page.keyboard.press('Tab');
        await poll(() => page.evaluate('document.activeElement?.textContent')).toBe(
          'Skip to content',
        );
        await page.keyboard.press('Tab');
        await poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Runs');

        await page.locator('.chart canvas').waitFor();
        await page.screenshot({ path: join(artifacts, 'runs.png'), fullPage: true });
        expect(await accessibilityViolations(page)).toEqual([]);
        await page.getByLabel('Suite', { exact: true }).selectOption('bank');
        await poll(() => rows.count()).toBe(2);
        await page.getByLabel('Branch', { exact: true }).selectOption('feature/eur');
        await poll(() => rows.count()).toBe(1);

        await page.getByRole('link', { name: '#2' }).click();
        await poll(() => heading(page).textContent()).toBe('Run #2 · bank');
        expect(page.url()).toMatch(/#\/runs\/2$/);
        const cases = page.locator('table.cases tbody tr');
        await poll(() => cases.count()).toBe(4);
        await poll(() => cases.nth(1).textContent()).toContain('2/3 flaky');
        await page.screenshot({ path: join(artifacts, 'run.png'), fullPage: true });
        expect(await accessibilityViolations(page)).toEqual([]);
        await page.getByLabel('Search', { exact: true }).fill('checking');
        await poll(() => cases.count()).toBe(1);
        await page.getByLabel('Search', { exact: true }).fill('');
        await page.getByLabel('Status', { exact: true }).selectOption('fail');
        await poll(() => cases.count()).toBe(2);

        await page.getByRole('link', { name: 'TC-010' }).click();
        await poll(() => heading(page).textContent()).toBe('TC-010');
        const diff = page.locator('table.diff tbody tr');
        await poll(() => diff.count()).toBe(2);
        await poll(() => diff.first().textContent()).toContain('value_mismatch');
        await page.getByRole('article', { name: 'Round 1' }).waitFor();
        await poll(() => page.locator('pre.command').textContent()).toBe(
          'calltape test examples/bank/suite.yaml --filter TC-010 --mode replay',
        );
        await page.screenshot({ path: join(artifacts, 'case.png'), fullPage: true });
        expect(await accessibilityViolations(page)).toEqual([]);

        await page.goto(`${origin}/calltape/app/#/runs/2/cases/default/TC-020`);
        await page.getByRole('listitem', { name: 'Turn 2' }).waitFor();
        await poll(() => page.getByRole('listitem', { name: 'Turn 2' }).textContent()).toContain(
          'claimed a transfer it never made',
        );
        await page.screenshot({ path: join(artifacts, 'conversation.png'), fullPage: true });

        await page.getByRole('link', { name: 'run #2' }).click();
        await page.getByRole('link', { name: 'compare with it' }).click();
        await poll(() => heading(page).textContent()).toBe('Run #1 → run #2');
        await poll(() => page.locator('table.changes').textContent()).toContain('regression');
        await poll(() => page.locator('table.changes').textContent()).toContain('"checking"');
        await poll(() => page.textContent('main')).toContain('the system prompt');
        await page.screenshot({ path: join(artifacts, 'compare.png'), fullPage: true });
        expect(await accessibilityViolations(page)).toEqual([]);

        // A shared address opens the same screen.
        await page.goto(`${origin}/calltape/app/#/runs/2/cases/default/TC-010`);
        await poll(() => heading(page).textContent()).toBe('TC-010');

        expect(errors).toEqual([]);
        expect(consoleErrors).toEqual([]);
        expect(elsewhere).toEqual([]);
      } finally {
        await close();
      }
    },
  );

  it('shows hostile names, arguments and problems as text: nothing in them runs', async () => {
    const origin = (server as ViewServer).origin;
    const { page, errors, close } = await openOfflinePage(browser as Browser, origin);
    try {
      await page.goto((server as ViewServer).appUrl);
      await page.goto(`${origin}/calltape/app/#/runs/3`);
      await poll(() => heading(page).textContent()).toContain('<img src=x');
      await page.locator('table.cases a').first().click();
      await poll(() => heading(page).textContent()).toContain('onerror');
      await page.goto(`${origin}/calltape/app/#/runs`);
      await poll(() => page.locator('table.runs tbody tr').count()).toBe(3);
      expect(await page.evaluate('window.hacked')).toBeUndefined();
      expect(await page.locator('main img, main script').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe.skipIf(!chromiumAvailable)('an exported run in Chromium', () => {
  it('opens from a file with no server, walks to a case, and keeps hostile content inert', async () => {
    const files = [2, 3].map((id) => {
      const reader = new ViewRunsReader(runsDb);
      const stored = reader.report(id);
      reader.close();
      const file = join(folder, `run-${id}.html`);
      writeFileSync(
        file,
        exportRun(stored as SuiteRunResult, { id, exitCode: 0 }, { cwd: packageRoot, runsDb }),
      );
      return file;
    });
    const { page, elsewhere, errors, close } = await openOfflinePage(browser as Browser, 'file://');
    try {
      await page.goto(`file://${files[0] as string}`);
      await poll(() => heading(page).textContent()).toBe('Run #2 · bank');
      await page.getByRole('link', { name: 'TC-010' }).click();
      await poll(() => heading(page).textContent()).toBe('TC-010');
      await page.getByRole('article', { name: 'Round 1' }).waitFor();
      await page.getByRole('link', { name: 'run #2' }).click();
      await page.getByRole('link', { name: 'compare with it' }).click();
      await poll(() => page.locator('table.changes').textContent()).toContain('regression');
      await page.screenshot({ path: join(artifacts, 'export.png'), fullPage: true });
      await page.goto(`file://${files[1] as string}`);
      await poll(() => heading(page).textContent()).toContain('<img src=x');
      await page.locator('table.cases a').first().click();
      await poll(() => heading(page).textContent()).toContain('onerror');
      expect(await page.evaluate('window.hacked')).toBeUndefined();
      expect(await page.locator('main img, main script').count()).toBe(0);
      expect(errors).toEqual([]);
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
      { adminExtension: createViewApp({ runsDb, cwd: folder }) },
    );
    try {
      const page = await fetch(`${proxy.url}/calltape/app/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const answer = (await (await fetch(`${proxy.url}/calltape/api/v1/runs`)).json()) as {
        runs: unknown[];
      };
      expect(answer.runs).toHaveLength(3);
      // The dashboard keeps its place.
      expect((await fetch(`${proxy.url}/calltape/`)).status).toBe(200);
    } finally {
      await proxy.close();
    }
  });
});
