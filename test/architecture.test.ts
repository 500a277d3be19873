import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/package-root.js';

/** Folders and files that must stay pure: plain data in, plain data out, no I/O imports. */
const pure = [
  'src/trace',
  'src/otel/gen-ai-spans.ts',
  'src/otel/mcp-operation.ts',
  'src/sse',
  'src/providers',
  'src/scoring',
  'src/cassette/redact.ts',
  'src/cassette/required-literal.ts',
  'src/cassette/captured-round.ts',
  'src/cassette/round-size.ts',
  'src/cassette/pack-rounds.ts',
  'src/cassette/recorded-exchange.ts',
  ...[
    'generator-requests',
    'generator-answers',
    'dedupe-prompts',
    'draft-case',
    'spread-counts',
  ].map((name) => `src/generate/${name}.ts`),
  'src/promote/promotion-plan.ts',
  'src/review/flip-case.ts',
  'src/review/review-session.ts',
  'src/review/pending-listing.ts',
  'src/suites/render-drafts.ts',
  ...[
    'json-rpc',
    'line-splitter',
    'mcp-request',
    'mcp-exchange',
    'redact-mcp',
    'nearest-mcp-recording',
    'choose-mcp-answer',
    'mcp-mock-types',
    'join-mcp-calls',
    'mcp-call-results',
    'json-rpc-tap',
    'mcp-http-request',
    'answer-mcp-post',
    'mcp-sessions',
    'diff-mcp-answers',
    'mcp-call-results',
    'mcp-spans',
    'replay-interim',
  ].map((name) => `src/mcp/${name}.ts`),
  ...[
    'evaluate-call',
    'constraint-case',
    'evaluate-session',
    'alert-window',
    'label-guard',
    'feed-events',
    'sample',
    'recent-activity',
    'duration',
    'verdict-types',
    'policy-types',
    'relayed-mcp-calls',
  ].map((name) => `src/live/${name}.ts`),
];
const ioImports = /from '(node:[^']+|better-sqlite3|ws|commander|undici|http-proxy-3|cli-table3)'/;

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
          name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.startsWith('providers'),
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
