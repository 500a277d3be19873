/**
 * `npm run demo`: the main job, offline. `calltape test` runs the example banking agent
 * (examples/bank/bank-agent.ts, official openai package) on the 22 cases of
 * examples/bank/suite.yaml, replaying every model answer from the committed cassette
 * recordings/bank-demo.sqlite — no network, no API key — with execute_transfer mocked so no
 * money moves, then scores each case and checks the gates. A copy of the cassette is used, so
 * the committed file stays as it is.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cassette = join(mkdtempSync(join(tmpdir(), 'calltape-demo-')), 'bank-demo.sqlite');
copyFileSync(join(root, 'recordings/bank-demo.sqlite'), cassette);
const args = ['test', 'examples/bank/suite.yaml', '--cassette', cassette, '--now', '2026-11-30T12:00:00Z'];
process.stdout.write(`$ calltape ${args.join(' ')}\n\n`);
const child = spawn(process.execPath, [join(root, 'dist/src/cli/main.js'), ...args], { cwd: root, stdio: 'inherit' });
process.exitCode = (await new Promise<number | null>((resolve) => child.once('exit', resolve))) ?? 1;
