import { chromium } from 'playwright-core';
const [url, out] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
const errors = [];
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
page.on('pageerror', (e) => errors.push(e.message));
const base = url.split('#')[0];
for (const [name, hash] of [['runs', '#/runs'], ['run', '#/runs/2'], ['case', '#/runs/2/cases/default/weather-paris'], ['compare', '#/compare/1/2'], ['configurations', '#/configurations/1/2'], ['rate', '#/rate'], ['review', '#/review'], ['judges', '#/judges'], ['staging', '#/staging']]) {
  await page.goto(base + hash);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${out}/${name}.png`, fullPage: true });
}
await page.goto('file:///tmp/view-stranger/reports/run.html');
await page.waitForTimeout(1500);
await page.screenshot({ path: `${out}/export.png`, fullPage: true });
console.log('errors', errors);
await browser.close();
