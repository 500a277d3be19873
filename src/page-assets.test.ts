import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from './package-root.js';
import { pageAsset } from './page-assets.js';

describe('pageAsset', () => {
  const base = readFileSync(join(packageRoot, 'assets', 'base.css'), 'utf8');
  const pages = readdirSync(join(packageRoot, 'assets')).filter((file) => file.endsWith('.html'));

  it('puts the shared stylesheet inside every page, once, in place of its marker', () => {
    expect(pages).toEqual(expect.arrayContaining(['dashboard.html', 'rate.html']));
    for (const name of pages) {
      const page = pageAsset(name);
      expect(page).not.toContain('calltape:base.css');
      expect(page.split(base)).toHaveLength(2);
      expect(page.indexOf(base)).toBeGreaterThan(page.indexOf('<style>'));
      expect(page.indexOf(base)).toBeLessThan(page.indexOf('</style>'));
    }
  });
});
