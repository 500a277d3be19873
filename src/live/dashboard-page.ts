import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

let page: string | undefined;

/** The dashboard: one self-contained HTML file (inline script and styles, no CDN), read once. */
export function dashboardPage(): string {
  page ??= readFileSync(join(packageRoot, 'assets', 'dashboard.html'), 'utf8');
  return page;
}
