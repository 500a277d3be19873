/**
 * `npm run demo:judges`: imports the bank example's golden set into a scratch ratings database
 * and compares the candidate judges with it, replaying their recorded answers from
 * recordings/bank-judges.sqlite — offline, and the same output every time. It replays a copy:
 * a replay notes which recordings it served (for `cassettes prune`), and a demo on a fresh clone
 * should leave the clone as it was.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'calltape-judges-demo-'));
const calltape = (args: readonly string[], stdout: 'inherit' | 'ignore' = 'inherit'): number =>
  spawnSync(process.execPath, [join(root, 'dist/src/cli/main.js'), ...args], {
    cwd: root,
    stdio: ['ignore', stdout, 'inherit'],
  }).status ?? 1;
try {
  const ratings = join(folder, 'ratings.sqlite');
  const cassette = join(folder, 'bank-judges.sqlite');
  copyFileSync(join(root, 'recordings/bank-judges.sqlite'), cassette);
  let code = calltape(
    ['ratings', 'import', 'examples/bank/judges/golden.yaml', '--ratings', ratings],
    'ignore',
  );
  if (code === 0)
    code = calltape([
      'judges',
      'compare',
      '--ratings',
      ratings,
      '--set',
      'golden',
      '--judges',
      'examples/bank/judges/judges.yaml',
      '--cassette',
      cassette,
      ...process.argv.slice(2),
    ]);
  process.exitCode = code;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
