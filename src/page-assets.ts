import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';

const marker = '/* calltape:base.css */';
const pages = new Map<string, string>();

/**
 * One of calltape's HTML pages from `assets/`, read once, with the shared stylesheet
 * (`assets/base.css`) put in place of its marker: a page stays one self-contained file (no second
 * request, no CDN, nothing the admin CSP must allow) while its common styles are written once.
 */
export function pageAsset(name: string): string {
  let page = pages.get(name);
  if (page === undefined) {
    const html = readFileSync(join(packageRoot, 'assets', name), 'utf8');
    if (!html.includes(marker)) throw new Error(`calltape: assets/${name} lacks ${marker}`);
    page = html.replace(marker, () =>
      readFileSync(join(packageRoot, 'assets', 'base.css'), 'utf8'),
    );
    pages.set(name, page);
  }
  return page;
}
