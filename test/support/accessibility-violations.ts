import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** axe-core's serious and critical violations on the page (run through DevTools, so the page's CSP does not apply). */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  const found = (await page.evaluate(
    `${axeSource}; axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
  )) as string[];
  return found;
}
