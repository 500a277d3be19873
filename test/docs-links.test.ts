import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/package-root.js';

/** Pages other changes add (the README links them by their agreed names). */
const pending = new Set([
  'docs/scoring.md',
  'docs/security.md',
  'SECURITY.md',
  'docs/frameworks.md',
  'docs/reference/errors.md',
]);

function markdownFiles(): string[] {
  const docs = readdirSync(join(packageRoot, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  return ['README.md', 'recordings/README.md', ...docs];
}

describe('documentation links', () => {
  it('every relative link in README.md and docs/ points at a file that exists', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      const text = readFileSync(join(packageRoot, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^[a-z]+:/.test(target) || target.startsWith('#')) continue;
        const path = relative(
          packageRoot,
          join(packageRoot, dirname(file), target.split('#')[0] ?? ''),
        );
        if (!existsSync(join(packageRoot, path)) && !pending.has(path))
          broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the README stays a front door: at most about 200 lines', () => {
    expect(
      readFileSync(join(packageRoot, 'README.md'), 'utf8').split('\n').length,
    ).toBeLessThanOrEqual(210);
  });
});
