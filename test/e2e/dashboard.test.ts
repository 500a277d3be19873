import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from '../../src/config/config.js';
import { packageRoot } from '../../src/package-root.js';
import { startNotesHttpServer } from '../support/mcp-http-server.js';
import { wipeModel, wipeThenAdd } from '../support/notes-agent.js';
import { framedJsonLines } from '../support/recorded-streams.js';
import { startScriptedUpstream, type Script } from '../support/scripted-upstream.js';
import { ask, bankModel, bankPolicies, writePolicies } from '../support/shadow-bank.js';
import {
  chromiumAvailable,
  launchChromium,
  openOfflinePage,
} from '../support/headless-chromium.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';
import { createViewApp } from '../../src/view/view-app.js';

const available = chromiumAvailable;

const running: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
});
let browser: Browser | undefined;
beforeAll(async () => {
  if (!available) return;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const token = 'dashboard-token-0123456789';

/** A passthrough proxy shadow-scoring the bank policies (and `extraPolicies`) behind the admin token, in front of `model`, and a client of it. */
async function startShadowedProxy(
  model: Script = bankModel,
  extraPolicies = '',
  overrides: Partial<Config> = {},
): Promise<{
  folder: string;
  proxy: Awaited<ReturnType<typeof startTestProxy>>;
  client: OpenAI;
}> {
  const upstream = await startScriptedUpstream(model);
  running.push(upstream);
  const folder = temporaryFolder();
  const proxy = await startTestProxy(
    upstream.url,
    {
      mode: 'passthrough',
      admin: { ...defaultConfig.admin, token },
      shadow: {
        ...defaultConfig.shadow,
        policies: writePolicies(folder, bankPolicies(extraPolicies)),
        database: join(folder, 'shadow.sqlite'),
      },
      ...overrides,
    },
    // The app the proxy serves under /calltape/app/, as calltape proxy composes it: the dashboard is its Staging section.
    { adminExtension: createViewApp({ runsDb: join(folder, 'runs.sqlite'), cwd: folder }) },
  );
  running.push(proxy);
  const client = new OpenAI({
    apiKey: 'sk-test-key-0123456789abcdef',
    baseURL: proxy.baseUrl,
    maxRetries: 0,
  });
  return { folder, proxy, client };
}

describe.skipIf(!available)(
  "the dashboard (the app's Staging section) in headless Chromium",
  () => {
    it('loads with no internet, and shows a call made during the test live, with its verdict and why', async () => {
      const { proxy, client } = await startShadowedProxy();
      await ask(client, 'transfer 120 euros', { session: 'earlier' });

      // Anything but the proxy itself is refused and noted: the page must need nothing from the internet.
      const { page, elsewhere, errors, close } = await openOfflinePage(
        browser as Browser,
        proxy.url,
      );
      running.push({ close });
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      // The dashboard's address opens the app; Staging is one of its sections.
      await page.goto(`${proxy.url}/calltape/?token=${token}`);
      expect(new URL(page.url()).pathname).toBe('/calltape/app/');
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'Staging' })
        .click();
      expect(new URL(page.url()).hash).toBe('#/staging');
      await page.locator('#status[data-state="live"]').waitFor({ timeout: 10_000 });
      // The call scored before the page opened is in the table from the state API.
      await page
        .locator('tr[data-tool="transfer_money"][data-verdict="pass"]')
        .waitFor({ timeout: 10_000 });

      await ask(client, 'transfer big', { session: 'during' });
      const row = page.locator('tr[data-tool="transfer_money"][data-verdict="fail"]');
      await row.waitFor({ timeout: 10_000 });
      expect(await row.locator('td.why').textContent()).toBe(
        'transfer-limits: amount is 25000, above the maximum 10000',
      );
      expect(await row.locator('td.args').textContent()).toBe(
        '{"amount":25000,"currency":"USD","to":"ACCT-12345"}',
      );
      expect(
        await page.locator('#chart polyline[data-tool="transfer_money"], #chart circle').count(),
      ).toBeGreaterThan(0);
      // Once the session idles out, it is listed among the failing sessions with its trajectory.
      const session = page.locator('.session[data-session="during"]');
      await session.waitFor({ timeout: 10_000 });
      expect(await session.locator('li').first().textContent()).toBe(
        'turn 1: transfer_money({"amount":25000,"currency":"USD","to":"ACCT-12345"}) — fail: transfer-limits: amount is 25000, above the maximum 10000',
      );
      // Filtering the table by verdict hides the passing call.
      await page.selectOption('#filter-verdict', 'fail');
      expect(await page.locator('tr[data-verdict="pass"]').isHidden()).toBe(true);
      await page.screenshot({
        path: join(packageRoot, 'test-artifacts', 'view', 'staging.png'),
        fullPage: true,
      });
      expect(consoleErrors).toEqual([]);

      expect(elsewhere).toEqual([]);
      expect(errors).toEqual([]);
    });

    it('shows a call scored while the page reads its state (regression: dashboard state/feed race)', async () => {
      const { proxy, client } = await startShadowedProxy();
      const context = await (browser as Browser).newContext();
      running.push({ close: () => context.close() });
      // The section reads the state once to find the feed, and again once the feed is open: that
      // second read gets the state as it was before the call; the call is scored before it arrives.
      let reads = 0;
      await context.route('**/calltape/api/v1/staging', async (route) => {
        const before = await route.fetch();
        if (++reads !== 2) return route.fulfill({ response: before });
        await ask(client, 'transfer big', { session: 'meanwhile' });
        await scored(`${proxy.url}/calltape/api/state?token=${token}`, 'meanwhile');
        await route.fulfill({ response: before });
      });
      const page = await context.newPage();
      await page.goto(`${proxy.url}/calltape/app/?token=${token}#/staging`);
      await page.locator('#status[data-state="live"]').waitFor({ timeout: 10_000 });
      await page
        .locator('tr[data-tool="transfer_money"][data-verdict="fail"]')
        .waitFor({ timeout: 10_000 });
      // Shown once, though the reconnect-safe page may see it in both the state and the feed.
      expect(await page.locator('tr[data-tool="transfer_money"]').count()).toBe(1);
    });

    it('shows the MCP calls the provider ran in a failing session’s trajectory, with their server', async () => {
      // A real recorded Responses stream with two hosted mcp_call items on server `dmcp` (src/providers/openai-responses/__fixtures__/).
      const recorded = new TextDecoder().decode(
        framedJsonLines(
          readFileSync(
            join(
              packageRoot,
              'src/providers/openai-responses/__fixtures__/ai-sdk-openai-mcp-tool.1.chunks.txt',
            ),
            'utf8',
          ),
        ),
      );
      const { proxy, client } = await startShadowedProxy(
        () => ({
          kind: 'sse',
          body: recorded,
          headers: { 'content-type': 'text/event-stream; charset=utf-8' },
        }),
        '  - id: one-search\n    kind: steps\n    max_steps: 1\n',
      );
      const page = await (browser as Browser).newPage();
      running.push({ close: () => page.close() });
      await page.goto(`${proxy.url}/calltape/app/?token=${token}#/staging`);
      await page.locator('#status[data-state="live"]').waitFor({ timeout: 10_000 });
      const stream = await client.responses.create(
        { model: 'gpt-5-mini', input: 'NYC mayor?', stream: true },
        { headers: { 'x-calltape-session': 'hosted-mcp' } },
      );
      for await (const _event of stream);
      const steps = page.locator('.session[data-session="hosted-mcp"] li[data-server="dmcp"]');
      await steps.first().waitFor({ timeout: 10_000 });
      expect(await steps.count()).toBe(2);
      expect(await steps.first().getAttribute('data-hosted')).toBe('true');
      expect(await steps.first().textContent()).toBe(
        'turn 1: web_search_exa({"query":"2025 New York City mayoral election results Nov 2025 latest results", "numResults": 5}) on dmcp (run by the provider) — unscored',
      );
    });

    it('shows the MCP calls relayed through /mcp/<name> in the session: the server, the tool that failed, and a call no model call asked for', async () => {
      const bearer = 'notes-bearer-0123456789abcdef';
      const notes = await startNotesHttpServer(bearer);
      running.push(notes);
      const { proxy, client } = await startShadowedProxy(
        wipeModel,
        '  - id: no-wipe\n    kind: never\n    tools: [notes__delete_everything]\n',
        { mcp: { ...defaultConfig.mcp, servers: { notes: notes.url } } },
      );
      const page = await (browser as Browser).newPage();
      running.push({ close: () => page.close() });
      await page.goto(`${proxy.url}/calltape/app/?token=${token}#/staging`);
      await page.locator('#status[data-state="live"]').waitFor({ timeout: 10_000 });

      const session = { 'x-calltape-session': 'relayed-mcp' };
      const transport = new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp/notes`), {
        requestInit: { headers: { authorization: `Bearer ${bearer}`, ...session } },
      });
      const mcp = new Client({ name: 'calltape-test-agent', version: '0.0.1' });
      await mcp.connect(transport);
      running.push({ close: () => mcp.close() });
      const answer = await wipeThenAdd(client, mcp, session);
      expect(answer.isError).toBe(true);

      const steps = page.locator('.session[data-session="relayed-mcp"] li[data-server="notes"]');
      await steps.nth(1).waitFor({ timeout: 10_000 });
      expect(await steps.allTextContents()).toEqual([
        'turn 1: notes__delete_everything({}) on notes — fail: no-wipe: notes__delete_everything was called; policy no-wipe forbids it · the tool failed',
        'turn 1: add({"a":2,"b":3}) on notes (no model call asked for it) — unscored',
      ]);
      expect(await steps.first().getAttribute('data-outcome')).toBe('failed');
      expect(await steps.nth(1).getAttribute('data-unasked')).toBe('true');
    });

    it('shows nothing without the token', async () => {
      const proxy = await startTestProxy('http://127.0.0.1:9', {
        mode: 'passthrough',
        admin: { ...defaultConfig.admin, token: 'dashboard-token-0123456789' },
      });
      running.push(proxy);
      const page = await (browser as Browser).newPage();
      running.push({ close: () => page.close() });
      const response = await page.goto(`${proxy.url}/calltape/`);
      expect(response?.status()).toBe(401);
      expect(await page.content()).not.toContain('live tool calls');
    });
  },
);

/** Waits until the state API lists a scored call of the session. */
async function scored(stateUrl: string, session: string): Promise<void> {
  for (;;) {
    const state = (await (await fetch(stateUrl)).json()) as { calls: { sessionId: string }[] };
    if (state.calls.some((call) => call.sessionId === session)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
