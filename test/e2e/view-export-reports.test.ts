import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuiteRunResult } from '../../src/report/run-result.js';
import { exportRun } from '../../src/view/export-page.js';
import {
  chromiumAvailable,
  launchChromium,
  openOfflinePage,
} from '../support/headless-chromium.js';
import { comparedRun, conversationRun, hostileRun } from '../support/report-runs.js';
import { temporaryFolder } from '../support/test-proxy.js';

// What the first HTML report's tests proved, proved again on what replaced it: calltape view's
// export of one run (`calltape test --html`, `calltape view --export`).

const folder = temporaryFolder();
const markup = '<img src=x onerror="window.hacked=1">';
let browser: Browser | undefined;

beforeAll(async () => {
  if (chromiumAvailable) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** A run exported as `calltape test --html` writes it (not stored: id 0, no runs database). */
function exported(name: string, report: SuiteRunResult): string {
  const file = join(folder, `${name}.html`);
  const page = exportRun(
    report,
    { id: 0, exitCode: 1 },
    { cwd: folder, runsDb: join(folder, 'none.sqlite') },
  );
  writeFileSync(file, page);
  return file;
}

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** Opens an exported file with nothing reachable but itself; checks it ran nothing and asked for nothing. */
async function withExport(file: string, walk: (page: Page) => Promise<void>): Promise<void> {
  const { page, elsewhere, errors, close } = await openOfflinePage(browser as Browser, 'file://');
  try {
    await page.goto(`file://${file}`);
    await walk(page);
    expect(await page.evaluate('window.hacked')).toBeUndefined();
    expect(await page.locator('main img, main script, main b').count()).toBe(0);
    expect(errors).toEqual([]);
    expect(elsewhere).toEqual([]);
  } finally {
    await close();
  }
}

describe('an exported run keeps every field inert', () => {
  it('issue-30: never lets a field close the data element or open a tag (any text)', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const page = exportRun(
          hostileRun(`${text}"'<hostile-tag></script>${text}`),
          { id: 0, exitCode: 1 },
          { cwd: folder, runsDb: join(folder, 'none.sqlite') },
        );
        expect(page).not.toContain('<hostile-tag>');
        // The data element's and the script's own closing tags, no other.
        expect(page.split('</script>')).toHaveLength(3);
      }),
      { numRuns: 30 },
    );
  });
});

describe.skipIf(!chromiumAvailable)('an exported run in Chromium', () => {
  it('issue-30: shows a case status, names and problems that are markup as text', async () => {
    await withExport(exported('hostile', hostileRun(markup, false)), async (page) => {
      await poll(() => heading(page).textContent()).toContain(markup);
      const row = page.locator('table.cases tbody tr').first();
      await poll(() => row.locator('td').last().textContent()).toBe(markup);
      expect(await row.locator('.badge').first().textContent()).toBe(markup);
      await row.getByRole('link').click();
      await poll(() => heading(page).textContent()).toBe(markup);
    });
  });

  it('shows the behaviour diff from the baseline on the run and on the case', async () => {
    await withExport(exported('compared', comparedRun()), async (page) => {
      const rows = page.locator('table.cases tbody tr');
      await poll(() => rows.count()).toBe(2);
      await poll(() => rows.first().locator('.change').textContent()).toContain(
        'city: "Paris" → "<b>Rome</b>"',
      );
      await poll(() => page.textContent('main')).toContain('Baseline: run #7');
      await rows.first().getByRole('link').click();
      await poll(() => page.locator('table.changes').textContent()).toContain('regression');
      await poll(() => page.locator('table.changes').textContent()).toContain('"<b>Rome</b>"');
    });
  });

  it('shows a conversation case turn by turn, each turn with its verdict', async () => {
    await withExport(exported('conversation', conversationRun), async (page) => {
      await page.getByRole('link', { name: 'refund' }).click();
      const turn = (n: number) => page.getByRole('listitem', { name: `Turn ${n}` });
      await poll(() => turn(1).textContent()).toContain('Which order?');
      expect(await turn(1).locator('h3 .badge').textContent()).toBe('pass');
      await poll(() => turn(2).textContent()).toContain('A-17 <b>');
      expect(await turn(2).textContent()).toContain('get_order');
      expect(await turn(2).textContent()).toContain('mocked');
      expect(await turn(3).locator('h3 .badge').textContent()).toBe('fail');
      expect(await turn(3).textContent()).toContain('issue_refund was not called');
    });
  });
});
