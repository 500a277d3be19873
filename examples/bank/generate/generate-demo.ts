/**
 * `npm run demo:generate`: writes draft cases for the bank example's search_transactions from
 * its should / should-not guidelines, replaying the generator's recorded answers from
 * recordings/bank-generate.sqlite — offline, the same suite every time — then lists the drafts
 * as calltape review shows them. Everything is written to a scratch folder (the suite path is
 * printed); a copy of the cassette is replayed, so the clone stays as it was.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateArgs } from './generate-args.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'calltape-generate-demo-'));
const calltape = (args: readonly string[]): number =>
  spawnSync(process.execPath, [join(root, 'dist/src/cli/main.js'), ...args], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  }).status ?? 1;
const cassette = join(folder, 'bank-generate.sqlite');
copyFileSync(join(root, 'recordings/bank-generate.sqlite'), cassette);
const suite = join(folder, 'search-drafts.yaml');
let code = calltape([
  ...generateArgs,
  '--out',
  suite,
  '--cassette',
  cassette,
  ...process.argv.slice(2),
]);
if (code === 0) code = calltape(['review', suite]);
process.exitCode = code;
