/**
 * `npm run demo`: the main job, offline. `calltape test` runs the example banking agent
 * (examples/bank/bank-agent.ts, official openai package) on the 22 cases of
 * examples/bank/suite.yaml, replaying every model answer from the committed cassette
 * recordings/bank-demo.sqlite — no network, no API key — with execute_transfer mocked so no
 * money moves, then scores each case and checks the gates. Replay only reads the cassette, so
 * the committed file stays byte for byte as it is (and `git status` clean).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = ['test', 'examples/bank/suite.yaml'];
process.stdout.write(`$ calltape ${args.join(' ')}\n\n`);
const child = spawn(process.execPath, [join(root, 'dist/src/cli/main.js'), ...args], {
  cwd: root,
  stdio: 'inherit',
});
process.exitCode =
  (await new Promise<number | null>((resolve) => child.once('exit', resolve))) ?? 1;
