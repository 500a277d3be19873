/**
 * The browser half of bench/view-bench.ts: how long calltape view takes, in headless Chromium
 * (playwright-core, Debian's /usr/bin/chromium), to draw a screen with its data — from
 * navigation start to the `calltape-ready` mark the app sets once the screen is drawn
 * (src/view/app/ready-mark.ts) — and the shipped assets' gzipped size.
 */
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { appAssets } from '../src/view/app-assets.js';
import { chromiumAvailable, launchChromium } from '../test/support/headless-chromium.js';
import { spread } from './round-spread.js';

/** A screen to time: its label, its address (`#/runs/12`), and its target in ms. */
export interface RenderedScreen {
  readonly label: string;
  readonly hash: string;
  readonly targetMs: number;
}

/** The app's script and stylesheet, gzipped (the budget: under 300 KB). */
export function shippedAssetsGzipped(): { files: number; raw: number; gzipped: number } {
  const { files } = appAssets();
  let raw = 0;
  let gzipped = 0;
  for (const file of files.values()) {
    raw += file.length;
    gzipped += gzipSync(file, { level: 9 }).length;
  }
  return { files: files.size, raw, gzipped };
}

/**
 * Times each screen `rounds` times: a fresh load of the app at its address, or (`inApp`) the
 * address changed inside an app already open on `from`, timed from the change. Prints
 * min / median / max per screen; a line saying why when there is no browser.
 */
export async function timeScreens(
  appUrl: string,
  screens: readonly (RenderedScreen & { readonly from?: string })[],
  rounds: number,
): Promise<void> {
  if (!chromiumAvailable) {
    process.stdout.write('  browser render: skipped, no Chromium at /usr/bin/chromium\n');
    return;
  }
  const browser: Browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    for (const screen of screens) {
      const times: number[] = [];
      for (let round = 0; round < rounds; round++) {
        if (screen.from === undefined) {
          await page.goto('about:blank');
          await page.goto(`${appUrl}${screen.hash}`);
          await page.waitForSelector(`html[data-ready="${screen.hash}"]`, { timeout: 60_000 });
          times.push(
            (await page.evaluate(
              `performance.getEntriesByName('calltape-ready').at(-1).startTime`,
            )) as number,
          );
        } else {
          await page.goto('about:blank');
          await page.goto(`${appUrl}${screen.from}`);
          await page.waitForSelector(`html[data-ready="${screen.from}"]`, { timeout: 60_000 });
          const started = (await page.evaluate(
            `(() => { const at = performance.now(); location.hash = ${JSON.stringify(screen.hash)}; return at; })()`,
          )) as number;
          await page.waitForSelector(`html[data-ready="${screen.hash}"]`, { timeout: 60_000 });
          const drawn = (await page.evaluate(
            `performance.getEntriesByName('calltape-ready').at(-1).startTime`,
          )) as number;
          times.push(drawn - started);
        }
      }
      const median = [...times].sort((a, b) => a - b)[Math.floor((times.length - 1) / 2)] ?? 0;
      process.stdout.write(
        `  ${screen.label.padEnd(40)} ${spread(times, 0, ' ms').padStart(28)}  target < ${screen.targetMs} ms ${median < screen.targetMs ? 'met' : 'MISSED'}\n`,
      );
    }
  } finally {
    await browser.close();
  }
}
