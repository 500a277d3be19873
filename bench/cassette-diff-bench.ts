/**
 * Cassette review diff (issue #31): how many lines `git diff` shows for a cassette after five
 * cases recorded concurrently are recorded again following one system-prompt change, with the
 * model's answer changed in one case. Run against this build, or another one to compare:
 *   node dist/bench/cassette-diff-bench.js [--cli path/to/dist/src/cli/main.js] [--show-diff]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cliPath, runCliAsync } from '../test/support/cli.js';
import { rerecordScenario } from '../test/support/rerecord-scenario.js';

const flag = process.argv.indexOf('--cli');
const cli = flag >= 0 ? resolve(process.argv[flag + 1] ?? '') : cliPath;
const outcome = await rerecordScenario({
  folder: mkdtempSync(join(tmpdir(), 'calltape-diff-bench-')),
  cli,
  run: (args, options) => runCliAsync(args, { ...options, cli }),
  changedCase: 'charlie',
  secondSystem: 'You are a weather assistant. Always call a tool before you answer.',
});
if (process.argv.includes('--show-diff')) process.stdout.write(outcome.diff);
process.stdout.write(
  `${JSON.stringify({
    cli,
    answerOrders: outcome.answerOrders,
    textconvLines: outcome.after.split('\n').length,
    changedLines: outcome.changedLineCount,
  })}\n`,
);
