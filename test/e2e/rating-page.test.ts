import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/config.js';
import { packageRoot } from '../../src/package-root.js';
import { RatingStore } from '../../src/ratings/rating-store.js';
import { anthropicMessage } from '../support/anthropic-messages-events.js';
import { startScriptedUpstream } from '../support/scripted-upstream.js';
import { createRatingPage } from '../../src/runner/rating-page.js';
import { combineExtensions } from '../../src/live/admin-routes.js';
import { createViewApp } from '../../src/view/view-app.js';
import {
  chromiumAvailable,
  launchChromium,
  openOfflinePage,
} from '../support/headless-chromium.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

const available = chromiumAvailable;
const token = 'rating-token-0123456789';
const bank = join(packageRoot, 'recordings/bank-demo.sqlite');
const folder = temporaryFolder();
const ratings = join(folder, 'ratings.sqlite');
const recorded = join(folder, 'locked.sqlite');

let browser: Browser | undefined;
let proxy: Awaited<ReturnType<typeof startTestProxy>> | undefined;
const origin = (): string => (proxy as NonNullable<typeof proxy>).url;

/** Records one run whose tool answered with an error: Claude asks for the balance, the tool fails, Claude says so. */
async function recordFailingTool(): Promise<void> {
  const upstream = await startScriptedUpstream([
    {
      kind: 'json',
      body: anthropicMessage({
        text: 'Let me check.',
        toolUses: [
          { id: 'toolu_balance', name: 'get_balance', input: '{"account_type":"savings"}' },
        ],
      }),
    },
    {
      kind: 'json',
      body: anthropicMessage({ text: 'Your account is locked, so I cannot see the balance.' }),
    },
  ]);
  const recorder = await startTestProxy('http://127.0.0.1:1', {
    anthropicUpstream: upstream.url,
    cassette: recorded,
    mode: 'record',
  });
  const client = new Anthropic({
    apiKey: 'sk-ant-test-key-0123456789abcdef',
    baseURL: recorder.url,
    maxRetries: 0,
    defaultHeaders: { 'x-calltape-session': 'locked' },
  });
  const tools: Anthropic.Tool[] = [
    {
      name: 'get_balance',
      description: 'the balance of an account',
      input_schema: { type: 'object', properties: { account_type: { type: 'string' } } },
    },
  ];
  const question = { role: 'user' as const, content: 'What is my savings balance?' };
  const first = await client.messages.create({
    model: 'claude-sonnet-4-5',
    max_tokens: 256,
    tools,
    messages: [question],
  });
  await client.messages.create({
    model: 'claude-sonnet-4-5',
    max_tokens: 256,
    tools,
    messages: [
      question,
      { role: 'assistant', content: first.content },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_balance',
            content: 'account locked',
            is_error: true,
          },
        ],
      },
    ],
  });
  // Closing writes everything captured; the rating page then reads a finished recording.
  await recorder.close();
  await upstream.close();
}

beforeAll(async () => {
  if (!available) return;
  await recordFailingTool();
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
        createViewApp({ runsDb: join(folder, 'runs.sqlite'), cwd: folder }),
      ),
    },
  );
  browser = await launchChromium();
  mkdirSync(artifacts, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await proxy?.close();
});

/** A page that may talk only to the proxy; anything else is noted and refused, like the dashboard test. */
async function openPage(address: string): ReturnType<typeof openOfflinePage> {
  const opened = await openOfflinePage(browser as Browser, origin());
  await opened.page.goto(`${origin()}${address}`);
  return opened;
}

const showing = (page: Page, run: string): Promise<void> =>
  page
    .locator(`section.rate[data-run="${run}"] #run-name:text-is("${run}")`)
    .waitFor({ timeout: 10_000 });
const artifacts = join(packageRoot, 'test-artifacts', 'view');

function stored(): { run: string; rating: string; note?: string; rater?: string }[] {
  const store = new RatingStore(ratings, { readonly: true });
  try {
    return store.list('golden').map(({ run, rating, note, rater }) => ({
      run,
      rating,
      ...(note !== undefined ? { note } : {}),
      ...(rater !== undefined ? { rater } : {}),
    }));
  } finally {
    store.close();
  }
}

describe.skipIf(!available)("the app's Rate section in headless Chromium", () => {
  it('shows each run the way the terminal rater does, stores every key as it is pressed, goes back, and resumes', async () => {
    // The rating page's old address, with the token: a cookie, then the app's Rate section.
    const { page, elsewhere, errors, close } = await openPage(
      `/calltape/rate?token=${token}&rater=ana`,
    );
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    try {
      // The token became a cookie and left the address; the other parameters stayed.
      expect(new URL(page.url()).pathname).toBe('/calltape/app/');
      expect(new URL(page.url()).hash).toBe('#/rate?rater=ana');
      await showing(page, `${bank}#TC-001`);
      // The keys are on screen, as buttons a keyboard reaches in order, each naming its key.
      const keys = page.getByRole('toolbar', { name: 'Rating keys' }).getByRole('button');
      expect(await keys.allTextContents()).toEqual([
        'Pass p',
        'Fail f',
        'Skip s',
        'Note n',
        'Back b',
      ]);
      expect(
        await keys.evaluateAll((buttons) =>
          buttons.map((button) => button.getAttribute('aria-keyshortcuts')),
        ),
      ).toEqual(['p', 'f', 's', 'n', 'b']);
      expect(await page.getByRole('toolbar', { name: 'Rating keys' }).textContent()).toContain(
        'n note (typed before p or f)',
      );
      await page.screenshot({ path: join(artifacts, 'rate.png'), fullPage: true });
      expect(await page.locator('#request').textContent()).toBe(
        "Transfer $150 to John Doe's savings account with the memo 'rent'",
      );
      expect(
        await page
          .locator('#tools > li')
          .evaluateAll((items) => items.map((item) => item.getAttribute('data-tool'))),
      ).toEqual(['execute_transfer', 'get_balance', 'search_transactions']);
      expect(
        await page.locator('#conversation .message[data-role="user"] pre').last().textContent(),
      ).toBe("Transfer $150 to John Doe's savings account with the memo 'rent'");
      expect(
        await page.locator('.call[data-tool="execute_transfer"] .arguments').textContent(),
      ).toBe(
        '→ execute_transfer({"recipient_name":"John Doe","amount":150,"account_type":"savings","memo":"rent"}) [mocked]',
      );
      expect(await page.locator('#final-answer').textContent()).not.toBe('');
      expect(await page.locator('#progress').textContent()).toContain(
        '[1/22] rated 0/22, pass 0.0%',
      );

      await page.keyboard.press('p');
      await showing(page, `${bank}#TC-002`);
      // Written the moment the key was pressed.
      expect(stored()).toEqual([{ run: `${bank}#TC-001`, rating: 'pass', rater: 'ana' }]);

      await page.keyboard.press('n');
      // The note field takes the focus, labelled with how to keep or drop the note.
      await expect
        .poll(() => page.evaluate<string | undefined>('document.activeElement?.id'))
        .toBe('note-input');
      await page.getByLabel('Note (Enter keeps it, Esc drops it)').fill('memo lower-cased');
      await page.locator('#note-input').press('Enter');
      await page.keyboard.press('f');
      await showing(page, `${bank}#TC-003`);
      expect(stored()[1]).toEqual({
        run: `${bank}#TC-002`,
        rating: 'fail',
        note: 'memo lower-cased',
        rater: 'ana',
      });

      await page.keyboard.press('b');
      await showing(page, `${bank}#TC-002`);
      expect(await page.locator('#this-rating').textContent()).toBe(
        'this run: fail (memo lower-cased)',
      );
      await page.keyboard.press('s');
      await showing(page, `${bank}#TC-003`);
      expect(await page.locator('#progress').textContent()).toContain('rated 2/22, pass 50.0%');

      // A new visit starts at the first run not yet rated.
      await page.reload();
      await showing(page, `${bank}#TC-003`);
      expect(stored()).toHaveLength(2);
      expect(elsewhere).toEqual([]);
      expect(errors).toEqual([]);
      expect(consoleErrors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('marks a tool result that failed', async () => {
    const { page, close } = await openPage(
      `/calltape/app/?token=${token}#/rate?runs=${encodeURIComponent(recorded)}&set=errors`,
    );
    try {
      await showing(page, `${recorded}#locked`);
      const result = page.locator('.call[data-tool="get_balance"] .result');
      expect(await result.textContent()).toBe('← [ERROR] account locked');
      expect(await result.getAttribute('class')).toContain('error');
      expect(await page.locator('#final-answer').textContent()).toBe(
        'Your account is locked, so I cannot see the balance.',
      );
    } finally {
      await close();
    }
  });

  it('requires the admin token, and takes writes only from its own page as JSON', async () => {
    const page = await (browser as Browser).newPage();
    try {
      const response = await page.goto(`${origin()}/calltape/rate`);
      expect(response?.status()).toBe(401);
      expect(await page.content()).not.toContain('Rate runs');
    } finally {
      await page.close();
    }
    const body = JSON.stringify({ runs: bank, run: `${bank}#TC-010`, key: 'p' });
    const post = (headers: Record<string, string>): Promise<Response> =>
      fetch(`${origin()}/calltape/api/v1/rate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    expect((await post({})).status).toBe(401);
    expect(
      (await post({ authorization: `Bearer ${token}`, origin: 'https://evil.example' })).status,
    ).toBe(403);
    const form = await fetch(`${origin()}/calltape/api/v1/rate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body,
    });
    expect(form.status).toBe(403);
    const gone = await fetch(`${origin()}/calltape/api/v1/rate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ runs: bank, run: `${bank}#TC-999`, key: 'p' }),
    });
    expect(gone.status).toBe(400);
    expect(((await gone.json()) as { error: { message: string } }).error.message).toBe(
      `calltape: ${bank}#TC-999: the run is no longer in ${bank}`,
    );
    expect(stored().map((rating) => rating.run)).not.toContain(`${bank}#TC-010`);
  });
});
