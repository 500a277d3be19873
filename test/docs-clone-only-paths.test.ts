import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/package-root.js';

const { files } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
  files: string[];
};
// Files of the repository, not scratch beside them: the suite itself leaves an ignored
// recordings/calltape.sqlite (the default cassette) in a clone it runs in.
const tracked = new Set(
  execFileSync('git', ['ls-files'], { cwd: packageRoot, encoding: 'utf8' }).split('\n'),
);
const shipped = picomatch(
  files.filter((entry) => !entry.startsWith('!')).flatMap((entry) => [entry, `${entry}/**`]),
);

/** The pages an installed package carries (README and docs/), split into paragraphs and code blocks. */
function blocksOf(file: string): string[] {
  const blocks: string[] = [];
  let fenced = false;
  let current: string[] = [];
  for (const line of readFileSync(join(packageRoot, file), 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (!fenced && line.trim() === '') {
      if (current.length > 0) blocks.push(current.join('\n'));
      current = [];
    } else current.push(line);
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}

/** Files a `calltape …` command in `block` names that the repository holds but the package does not ship. */
function cloneOnlyPaths(block: string): string[] {
  return [...block.matchAll(/calltape [^`]*/g)].flatMap(([command]) =>
    [...command.matchAll(/(?:^|[\s=])((?:[\w.-]+\/)+[\w.-]+\.\w+)/g)]
      .map(([, path]) => path ?? '')
      .filter((path) => tracked.has(path) && !shipped(path)),
  );
}

describe('the docs give bank example commands that only work from a clone of the repository', () => {
  const pages = [
    'README.md',
    ...readdirSync(join(packageRoot, 'docs'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.md'))
      .map((name) => join('docs', name)),
  ];

  it('finds such commands (so the check below is not vacuous)', () => {
    expect(blocksOf('README.md').flatMap(cloneOnlyPaths)).toContain('examples/bank/suite.yaml');
  });

  it('says "from a clone" wherever a command names a file the installed package lacks', () => {
    const unsaid = pages.flatMap((page) =>
      blocksOf(page).flatMap((block, index, blocks) => {
        const paths = cloneOnlyPaths(block);
        const context = [blocks[index - 1] ?? '', block, blocks[index + 1] ?? ''].join('\n');
        return paths.length > 0 && !/\bclone\b/i.test(context)
          ? [`${page}: ${paths.join(', ')}`]
          : [];
      }),
    );
    expect(unsaid).toEqual([]);
  });
});
