import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { RatingStore } from '../../src/ratings/rating-store.js';
import type { SuiteRunResult } from '../../src/report/run-result.js';
import { RunStore } from '../../src/runner/run-store.js';
import { exportConfigurations, exportRun } from '../../src/view/export-page.js';
import { ViewRunsReader } from '../../src/view/view-runs-reader.js';
import { startViewServer, type ViewServer } from '../../src/view/view-server.js';
import { createViewSections } from '../../src/view/view-sections.js';
import { accessibilityViolations } from '../support/accessibility-violations.js';
import { cases, runs, suiteRun } from '../support/configuration-runs.js';
import {
  chromiumAvailable,
  launchChromium,
  openOfflinePage,
} from '../support/headless-chromium.js';
import { temporaryFolder } from '../support/test-proxy.js';

const folder = temporaryFolder();
const runsDb = join(folder, 'calltape-runs.sqlite');
const ratingsDb = join(folder, 'calltape-ratings.sqlite');
/** Screenshots of each screen, kept for a person to look at (gitignored). */
const artifacts = join(packageRoot, 'test-artifacts', 'view');
const hostile = '<img src=x onerror="window.hacked=1">';

/** A judge of `calltape judges compare`'s report (config/judges-report.schema.json). */
const judge = (name: string, kappa: number, disagreements: number) => ({
  name,
  kind: 'llm',
  model: 'claude-haiku-4-5',
  n: 4,
  errors: 0,
  accuracy: (4 - disagreements) / 4,
  kappa,
  precision: 1,
  recall: disagreements === 0 ? 1 : 0.5,
  f1: disagreements === 0 ? 1 : 0.667,
  confusion: { truePositive: 1, falsePositive: 0, falseNegative: disagreements, trueNegative: 2 },
  flake_rate: 0,
  spearman: null,
  kendall_tau: null,
  tokens: { input: 4000, output: 200 },
  cost: 0.0052,
  mean_latency_ms: 812.4,
  disagreements: Array.from({ length: disagreements }, (_, index) => ({
    run: `session-${index + 1}`,
    rating: 'fail' as const,
    note: `${hostile} the refund was never made`,
    judged: 'pass' as const,
    reason: `${hostile} it said done`,
  })),
});

let server: ViewServer | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  // #1 of both configurations (small, bare), #2 of bare alone.
  const store = new RunStore(runsDb);
  for (const result of [suiteRun(runs, cases), suiteRun(runs.slice(1), cases)])
    store.save(result, 0, JSON.stringify(result));
  store.close();
  const ratings = new RatingStore(ratingsDb);
  ratings.putComparison({
    at: '2026-12-03T10:00:00.000Z',
    report: {
      ratings: 'calltape-ratings.sqlite',
      set: 'golden',
      judges_file: `${hostile}judges.yaml`,
      cassette: null,
      mode: 'replay',
      runs: 4,
      rated_pass: 2,
      rated_fail: 2,
      best: 'strict',
      judges: [judge('strict', 1, 0), judge(`${hostile}lenient`, 0.5, 1)],
    },
  });
  ratings.close();
  server = await startViewServer({
    runsDb,
    cwd: folder,
    host: '127.0.0.1',
    port: 0,
    token: undefined,
    sections: createViewSections({ cwd: folder, runsDb, ratingsDb, suites: [] }),
  });
  if (chromiumAvailable) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
const heading = (page: Page) => page.getByRole('heading', { level: 1 });
/** The side-by-side table's column heads and the cells of one of its rows. */
const sideBySide = (page: Page) => ({
  columns: () => page.locator('table.side-by-side thead th').allTextContents(),
  row: (label: string) =>
    page
      .locator('table.side-by-side tbody tr')
      .filter({ has: page.getByRole('rowheader', { name: label, exact: true }) })
      .locator('td')
      .allTextContents(),
});

/** Opens the app at `path`; afterwards checks it ran nothing injected and asked nothing of another origin. */
async function walk(url: string, origin: string, steps: (page: Page) => Promise<void>) {
  const { page, elsewhere, errors, close } = await openOfflinePage(browser as Browser, origin);
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(url);
    await steps(page);
    expect(await page.evaluate('window.hacked')).toBeUndefined();
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(errors).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(elsewhere).toEqual([]);
  } finally {
    await close();
  }
}

describe.skipIf(!chromiumAvailable)('configurations side by side in Chromium', () => {
  it(
    'shows a run of several configurations side by side, and the runs picked on the runs list',
    { timeout: 90_000 },
    async () => {
      const { origin, appUrl } = server as ViewServer;
      await walk(`${appUrl}#/runs/1`, origin, async (page) => {
        const table = sideBySide(page);
        await poll(() => table.columns()).toEqual(['#1:small', '#1:bare']);
        expect(await table.row('tools offered')).toEqual(['search', '(none)']);
        expect(await table.row('pass rate')).toEqual(['50% (1/2)', '50% (1/2)']);
        expect(await table.row('judge verdicts')).toEqual([
          '1 pass · 1 fail',
          '0 pass · 0 fail · 1 error',
        ]);
        expect(await table.row('cost')).toEqual(['$0.0004', '-']);
        expect(await table.row('search')).toEqual(['100% (1/1)', '-']);
        await page.screenshot({ path: join(artifacts, 'run-configurations.png'), fullPage: true });
        expect(await accessibilityViolations(page)).toEqual([]);

        await page.getByRole('link', { name: 'Runs', exact: true }).first().click();
        const compare = page.getByRole('button', { name: 'Compare configurations' });
        await poll(() => compare.isDisabled()).toBe(true);
        await page.getByLabel('Pick run #2 to compare configurations').check();
        await page.getByLabel('Pick run #1 to compare configurations').check();
        await compare.click();
        await poll(() => heading(page).textContent()).toBe('Configurations side by side');
        expect(page.url()).toMatch(/#\/configurations\/1\/2$/);
        await poll(() => table.columns()).toEqual(['#1:small', '#1:bare', '#2']);
        expect(await table.row('unreliable')).toEqual(['0', '1', '1']);
        await page.screenshot({ path: join(artifacts, 'configurations.png'), fullPage: true });
        expect(await accessibilityViolations(page)).toEqual([]);
      });
    },
  );

  it('carries the side-by-side table in an exported run and in calltape compare --html', async () => {
    const reader = new ViewRunsReader(runsDb);
    const report = reader.report(1) as SuiteRunResult;
    reader.close();
    const run = join(folder, 'run-1.html');
    writeFileSync(run, exportRun(report, { id: 1, exitCode: 0 }, { cwd: folder, runsDb }));
    const compared = join(folder, 'compare.html');
    writeFileSync(compared, exportConfigurations({ cwd: folder, runsDb }, ['1:small', '2']));
    await walk(`file://${run}`, 'file://', async (page) => {
      await poll(() => sideBySide(page).columns()).toEqual(['#1:small', '#1:bare']);
    });
    await walk(`file://${compared}`, 'file://', async (page) => {
      await poll(() => sideBySide(page).columns()).toEqual(['#1:small', '#2']);
      expect(await sideBySide(page).row('mean latency')).toEqual(['200 ms', '100 ms']);
    });
  });
});

describe.skipIf(!chromiumAvailable)('the Judges section in Chromium', () => {
  it(
    'shows the judge comparisons kept in the ratings database, hostile names as text, accessibly',
    { timeout: 60_000 },
    async () => {
      const { origin, appUrl } = server as ViewServer;
      await walk(`${appUrl}#/judges`, origin, async (page) => {
        const comparison = page.getByRole('region', {
          name: `${hostile}judges.yaml against golden`,
        });
        await poll(() => comparison.locator('tbody tr').count()).toBe(2);
        const strict = comparison.locator('tr[data-judge="strict"]');
        expect(await strict.locator('th').textContent()).toContain('★ strict');
        expect(await strict.locator('td.kappa').textContent()).toBe('1.000');
        expect(await strict.locator('td').allTextContents()).toContain('100.0%');
        expect(await comparison.locator('p.best').textContent()).toBe(
          'Best judge: strict (highest κ, then lowest cost).',
        );
        const lenient = comparison.locator('tr').filter({ hasText: `${hostile}lenient` });
        expect(await lenient.locator('td.kappa').textContent()).toBe('0.500');
        await comparison.getByText(`${hostile}lenient disagrees on 1 run(s)`).click();
        const disagreement = comparison.locator('details.disagreements li');
        await poll(() => disagreement.textContent()).toContain(`${hostile} it said done`);
        expect(await disagreement.textContent()).toContain(
          `rater’s note: ${hostile} the refund was never made`,
        );
        await page.screenshot({ path: join(artifacts, 'judges.png'), fullPage: true });
        expect(await accessibilityViolations(page)).toEqual([]);
      });
    },
  );
});

describe.skipIf(!chromiumAvailable)('the Rate section with nothing to rate yet', () => {
  it('says what to name under Runs (a new project has no recordings/calltape.sqlite)', async () => {
    const { origin, appUrl } = server as ViewServer;
    const { page, close } = await openOfflinePage(browser as Browser, origin);
    try {
      await page.goto(`${appUrl}#/rate`);
      await poll(() => page.getByRole('alert').textContent()).toContain('no such cassette');
      expect(await page.locator('section.rate p.muted').textContent()).toContain('run:<id>');
    } finally {
      await close();
    }
  });
});
