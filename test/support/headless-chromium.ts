import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const chromiumPath = '/usr/bin/chromium';

/** Whether the browser tests run: CI installs Debian's chromium and sets CALLTAPE_REQUIRE_BROWSER, so there they can never be skipped. */
export const chromiumAvailable =
  existsSync(chromiumPath) || process.env['CALLTAPE_REQUIRE_BROWSER'] === '1';

/** Starts headless Chromium; the flags keep it off the network it would otherwise try (this machine has none). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page in its own context that may talk only to `origin` (HTTP and WebSocket): anything else is refused and noted, as are the page's script errors. */
export async function openOfflinePage(
  browser: Browser,
  origin: string,
): Promise<{
  readonly page: Page;
  readonly elsewhere: string[];
  readonly errors: string[];
  readonly close: () => Promise<void>;
}> {
  const context = await browser.newContext();
  const elsewhere: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith(origin.replace('http', 'ws')))
      return route.continue();
    elsewhere.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, elsewhere, errors, close: () => context.close() };
}
