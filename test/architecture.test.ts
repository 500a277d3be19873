import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/package-root.js';

/** Folders and files that must stay pure (architecture.json, which eslint.config.js reads too). */
const architecture = JSON.parse(readFileSync(join(packageRoot, 'architecture.json'), 'utf8')) as {
  pure: string[];
  ioPackages: string[];
};
const pure = architecture.pure.map((unit) => `src/${unit}`);
const ioImports = new RegExp(`from '(${architecture.ioPackages.join('|')})'`);

function sourceFiles(path: string): string[] {
  const absolute = join(packageRoot, path);
  if (statSync(absolute).isFile()) return [absolute];
  return readdirSync(absolute, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => join(absolute, name));
}

describe('layering', () => {
  it.each(pure)('%s imports no I/O module', (path) => {
    const offenders = sourceFiles(path).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => ioImports.test(line))
        .map((line) => `${relative(packageRoot, file)}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps wire JSON inside the provider adapters', () => {
    // Wire fields are read as object['field'] (noPropertyAccessFromIndexSignature); only adapters may.
    // (tool_calls and messages are also calltape's own table and field names, so they are not listed.)
    const outside = readdirSync(join(packageRoot, 'src'), { recursive: true, encoding: 'utf8' })
      .filter(
        (name) =>
          name.endsWith('.ts') &&
          !name.endsWith('.test.ts') &&
          !name.startsWith('providers') &&
          // Importers read other tools' eval files, which name request fields (promptfoo's tool_choice).
          !name.startsWith('importers'),
      )
      .filter((name) =>
        /\[['"](choices|delta|finish_reason|tool_choice|function_call)['"]\]/.test(
          readFileSync(join(packageRoot, 'src', name), 'utf8'),
        ),
      );
    expect(outside).toEqual([]);
  });

  it('opens cassette files in one place (open-cassette.ts: pragmas, migrations, busy timeout)', () => {
    const opening = [...sourceFiles('src/cassette'), ...sourceFiles('src/mcp')].filter((file) =>
      /^import Database from 'better-sqlite3'/m.test(readFileSync(file, 'utf8')),
    );
    expect(opening.map((file) => relative(packageRoot, file))).toEqual([
      'src/cassette/sqlite/open-cassette.ts',
    ]);
  });

  it('stable-stringifies in one place (stable-stringify.ts: the text every stored key hashes)', () => {
    const stringifying = sourceFiles('src').filter((file) =>
      /from '(safe|fast-json)-stable-stringify'/.test(readFileSync(file, 'utf8')),
    );
    expect(stringifying.map((file) => relative(packageRoot, file))).toEqual([
      'src/stable-stringify.ts',
    ]);
  });

  // 200 lines as the code was written, before Prettier wrapped it at width 100; formatted, the same
  // files are about half as long again, so the bound on formatted code is 320.
  it('keeps every file in src/proxy/ at 320 formatted lines or under', () => {
    const long = sourceFiles('src/proxy').filter(
      (file) => readFileSync(file, 'utf8').split('\n').length > 321,
    );
    expect(long.map((file) => relative(packageRoot, file))).toEqual([]);
  });

  it('names the columns of every insert', () => {
    const bare = sourceFiles('src').filter((file) =>
      /INSERT (OR \w+ )?INTO \w+ VALUES/.test(readFileSync(file, 'utf8')),
    );
    expect(bare.map((file) => relative(packageRoot, file))).toEqual([]);
  });

  // The folder arrows of the design: the runner drives the others, never the reverse.
  it.each([
    'src/live',
    'src/mocks',
    'src/report',
    'src/scoring',
    'src/suites',
    'src/judges',
    'src/user-code',
  ])('%s imports nothing from runner/', (path) => {
    const offenders = sourceFiles(path).filter((file) =>
      /from '(\.\.\/)+runner\//.test(readFileSync(file, 'utf8')),
    );
    expect(offenders.map((file) => relative(packageRoot, file))).toEqual([]);
  });
});
