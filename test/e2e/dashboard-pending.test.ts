import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync, startCliProxy, type CliProxy } from '../support/cli.js';
import {
  chromiumAvailable,
  launchChromium,
  openOfflinePage,
} from '../support/headless-chromium.js';
import { temporaryFolder } from '../support/test-proxy.js';
import { packageRoot } from '../../src/package-root.js';

const token = 'pending-token-0123456789';
const folder = temporaryFolder();
const artifacts = join(packageRoot, 'test-artifacts', 'view');

// A reviewed case, then a generated and a promoted draft; comments and blank lines move the drafts off easy lines.
const suite = `# bank drafts
name: bank
cases:
  - test_id: reviewed
    prompt: what is my balance?
    expected_tool: get_balance

  # from calltape generate
  - test_id: gen-rent
    prompt: find my rent payments from March
    expected_tool: search_transactions
    review: pending
    provenance:
      source: generated
      tool: search_transactions
      kind: positive
      guideline: the customer asks about past payments
      generator: gpt-test
  - test_id: promoted-big
    prompt: send 25000 to ACCT-12345
    never: [transfer_money]
    review: pending
    provenance:
      source: promoted
      session: during
      failures:
        - "transfer-limits/maximum: amount is 25000, above the maximum 10000"
`;

let proxy: CliProxy | undefined;
let browser: Browser | undefined;
beforeAll(async () => {
  writeFileSync(join(folder, 'drafts.yaml'), suite);
  writeFileSync(join(folder, 'broken.yaml'), 'cases:\n  - test_id: [\n');
  proxy = await startCliProxy(
    [
      '--mode',
      'passthrough',
      '--upstream',
      'http://127.0.0.1:9',
      '--log-level',
      'error',
      '--suites',
      'drafts.yaml',
      'broken.yaml',
      'gone.yaml',
    ],
    { cwd: folder, env: { CALLTAPE_ADMIN_TOKEN: token } },
  );
  if (chromiumAvailable) browser = await launchChromium();
  mkdirSync(artifacts, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  proxy?.child.kill('SIGKILL');
});
const origin = (): string => (proxy as CliProxy).url;

describe('the pending-cases API of calltape proxy --suites', () => {
  it('says at start which suites are not there yet, so a mistyped name shows at once', () => {
    expect((proxy as CliProxy).stdout()).toContain(
      "pending cases in the app's Review section from drafts.yaml, broken.yaml, gone.yaml · not found yet: gone.yaml\n",
    );
  });

  it('needs the admin token', async () => {
    const refused = await fetch(`${origin()}/calltape/api/pending`);
    expect(refused.status).toBe(401);
    expect(await refused.text()).not.toContain('gen-rent');
    const wrong = await fetch(`${origin()}/calltape/api/pending`, {
      headers: { authorization: 'Bearer not-the-token-0123456789' },
    });
    expect(wrong.status).toBe(401);
  });

  it('lists the drafts pending review with file:line, and names each file it cannot read', async () => {
    const answer = await fetch(`${origin()}/calltape/api/pending`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status).toBe(200);
    const { suites } = (await answer.json()) as {
      suites: {
        file: string;
        review?: string;
        error?: string;
        cases?: { id: string; location: string }[];
      }[];
    };
    expect(suites.map((entry) => entry.file)).toEqual(['drafts.yaml', 'broken.yaml', 'gone.yaml']);
    expect(suites[0]?.review).toBe('calltape review drafts.yaml');
    expect(suites[0]?.cases?.map((draft) => [draft.id, draft.location])).toEqual([
      ['gen-rent', 'drafts.yaml:9'],
      ['promoted-big', 'drafts.yaml:19'],
    ]);
    expect(suites[1]?.error).toContain('broken.yaml');
    // Named as given, not by an absolute path of the proxy's machine.
    expect(suites[2]?.error).toBe('gone.yaml: cannot read the suite: ENOENT');
  });

  it('takes a decision only from the app itself: a POST from another origin is refused', async () => {
    const answer = await fetch(`${origin()}/calltape/api/v1/review`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        origin: 'https://evil.example',
      },
      body: JSON.stringify({ suite: 'drafts.yaml', case: 'gen-rent', decision: 'accept' }),
    });
    expect(answer.status).toBe(403);
  });
});

describe.skipIf(!chromiumAvailable)(
  "the Review section of the proxy's app in headless Chromium",
  () => {
    it('shows each pending draft with its file:line, and a review made in a terminal at the next refresh', async () => {
      const { page, elsewhere, errors, close } = await openOfflinePage(
        browser as Browser,
        origin(),
      );
      try {
        await page.goto(`${origin()}/calltape/app/?token=${token}#/review`);
        const generated = page.locator('.suite[data-file="drafts.yaml"] tr[data-case="gen-rent"]');
        await generated.waitFor({ timeout: 10_000 });
        expect(await generated.locator('td.location').textContent()).toBe('drafts.yaml:9');
        expect(await generated.getAttribute('data-kind')).toBe('positive');
        expect(await generated.locator('td.provenance').textContent()).toContain(
          'guideline: the customer asks about past payments',
        );
        const promoted = page.locator('tr[data-case="promoted-big"]');
        expect(await promoted.locator('td.location').textContent()).toBe('drafts.yaml:19');
        expect(await promoted.getAttribute('data-kind')).toBe('negative');
        expect(await promoted.locator('td.tool').textContent()).toBe('transfer_money');
        expect(await promoted.locator('td.provenance').textContent()).toContain(
          'failed: transfer-limits/maximum: amount is 25000, above the maximum 10000',
        );
        expect(await page.locator('main').textContent()).toContain('calltape review drafts.yaml');
        expect(
          await page.locator('.suite[data-file="gone.yaml"][data-error="true"]').textContent(),
        ).toContain('gone.yaml');
        await page.screenshot({ path: join(folder, 'pending.png'), fullPage: true });
        // The reviewed case is no draft, so the panel never lists it.
        expect(await page.locator('tr[data-case="reviewed"]').count()).toBe(0);

        const reviewed = await runCliAsync(['review', 'drafts.yaml', '--accept', 'gen-rent'], {
          cwd: folder,
        });
        expect(reviewed.status).toBe(0);
        await page.click('#review-refresh');
        await generated.waitFor({ state: 'detached', timeout: 10_000 });
        expect(await promoted.locator('td.location').textContent()).toMatch(/^drafts\.yaml:\d+$/);
      } finally {
        await close();
      }
      expect(elsewhere).toEqual([]);
      expect(errors).toEqual([]);
    });
    it('accepts a pending case from the app: the suite file changes as calltape review --accept changes it', async () => {
      writeFileSync(join(folder, 'drafts.yaml'), suite);
      const { page, elsewhere, errors, close } = await openOfflinePage(
        browser as Browser,
        origin(),
      );
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      try {
        await page.goto(`${origin()}/calltape/app/?token=${token}#/review`);
        const accept = page.getByRole('button', { name: 'Accept gen-rent' });
        await accept.waitFor({ timeout: 10_000 });
        // Each case's decisions are labelled with the case they decide, and reached in order by Tab.
        expect(
          await page
            .getByRole('button', { name: /^(Accept|Reject) / })
            .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label'))),
        ).toEqual([
          'Accept gen-rent',
          'Reject gen-rent',
          'Accept promoted-big',
          'Reject promoted-big',
        ]);
        await page.screenshot({ path: join(artifacts, 'review.png'), fullPage: true });
        await accept.click();
        await page
          .getByRole('status')
          .filter({ hasText: 'Accepted gen-rent in drafts.yaml.' })
          .waitFor({ timeout: 10_000 });
        await page.locator('tr[data-case="gen-rent"]').waitFor({ state: 'detached' });
        const expected = join(temporaryFolder(), 'expected.yaml');
        writeFileSync(expected, suite);
        const cli = await runCliAsync(['review', expected, '--accept', 'gen-rent'], {
          cwd: folder,
        });
        expect(cli.status).toBe(0);
        expect(readFileSync(join(folder, 'drafts.yaml'), 'utf8')).toBe(
          readFileSync(expected, 'utf8'),
        );
        expect(await page.locator('tr[data-case="promoted-big"]').count()).toBe(1);
      } finally {
        await close();
      }
      expect(elsewhere).toEqual([]);
      expect(errors).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });
  },
);
