import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/package-root.js';

const templates = join(packageRoot, 'assets/init');
const packageFiles = (
  JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { files: string[] }
).files;
const shipped = picomatch(
  packageFiles.filter((entry) => !entry.startsWith('!')).flatMap((entry) => [entry, `${entry}/**`]),
);

/** Every `docs/…` or `config/…` path a template written by `calltape init` tells the user to read. */
function mentionedPaths(): { template: string; path: string }[] {
  return readdirSync(templates, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .flatMap((entry) =>
      [
        ...readFileSync(join(templates, entry.name), 'utf8').matchAll(
          /\b(?:docs|config)\/[\w./-]*\w/g,
        ),
      ].map(([path]) => ({ template: entry.name, path })),
    );
}

describe('calltape init templates link docs/guides/test.md, which does not exist', () => {
  it('finds the paths the templates mention (so the check below is not vacuous)', () => {
    expect(mentionedPaths().map(({ path }) => path)).toContain('docs/reference/configuration.md');
  });

  it('every docs or config path an init template mentions exists and ships in the package', () => {
    const broken = mentionedPaths()
      .filter(({ path }) => !existsSync(join(packageRoot, path)) || !shipped(path))
      .map(({ template, path }) => `${template}: ${path}`);
    expect(broken).toEqual([]);
  });
});
