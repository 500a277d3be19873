/**
 * `node dist/bench/pipeline-bench.js`: what calltape's HTTP pipeline costs per request, beside the
 * bare node:http pipe. The bare pipe, calltape `--mode passthrough` (the pipeline alone) and
 * calltape recording each take 50 connections of non-streamed Chat Completions back to back, in
 * alternating rounds (the order rotating, so contention from other work on the machine hits every
 * path alike), and the proxy's CPU per request is read from its threads' schedstat (main thread,
 * and all threads) rather than from wall-clock time. A short 1-connection phase gives the latency
 * p50 over the upstream reached directly.
 *
 * `--compare DIR` also runs the build in DIR (a folder holding `dist/`, `package.json`,
 * `proxy.config.json` and a `node_modules` link: a copy of an earlier build) in the same rounds,
 * so a change is judged against the code before it at the same moment.
 * Flags: `--rounds N` (default 6), `--seconds S` per saturated phase (default 3), `--quick`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberFlag, quick, textFlag } from './bench-flags.js';
import { percentile, runRequests } from './measure.js';
import { threadCpuUs, threadsCpuUs } from './process-cpu.js';
import { spread } from './round-spread.js';
import { proxyArgs, proxyListening, startBenchUpstream, startChild } from './start-child.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const rounds = numberFlag('--rounds', quick ? 1 : 6);
const phaseMs = numberFlag('--seconds', quick ? 0.5 : 3) * 1000;
const compare = textFlag('--compare');
const folder = mkdtempSync(join(tmpdir(), 'calltape-pipeline-bench-'));
const path = '/v1/chat/completions';

const upstream = await startBenchUpstream(root);
const upstreamUrl = upstream.url;

/** A measured proxy process. */
interface Target {
  readonly name: string;
  readonly origin: string;
  readonly pid: number;
}

async function start(name: string, args: string[], env: Record<string, string>): Promise<Target> {
  const started = await startChild(root, args, env, name === 'bare' ? /^(\d+)\n/ : proxyListening);
  return { name, origin: `http://127.0.0.1:${started.port}`, pid: started.child.pid ?? 0 };
}

/** Both calltape paths of the build under `buildRoot`, named with `suffix`. */
async function calltapeTargets(buildRoot: string, suffix: string): Promise<Target[]> {
  const env = { CALLTAPE_CONFIG: join(buildRoot, 'proxy.config.json') };
  const cassette = join(folder, `bench${suffix.replace(/\W/g, '-')}.sqlite`);
  return [
    await start(`passthrough${suffix}`, proxyArgs(buildRoot, upstreamUrl, 'passthrough'), env),
    await start(
      `recording${suffix}`,
      proxyArgs(buildRoot, upstreamUrl, 'record', '--cassette', cassette),
      env,
    ),
  ];
}

const targets: Target[] = [
  await start('bare', [join(root, 'dist/bench/bare-proxy.js')], { BENCH_UPSTREAM: upstreamUrl }),
  ...(await calltapeTargets(root, '')),
  ...(compare ? await calltapeTargets(resolve(compare), ' (compared)') : []),
];

/** CPU (µs) of a process so far: its main thread, and all its threads. */
const cpuOf = (pid: number): { readonly main: number; readonly all: number } => ({
  main: threadCpuUs(pid, String(pid)) ?? 0,
  all: threadsCpuUs(pid),
});

process.stderr.write('warming up…\n');
// By count: V8 must have optimised each path's code before it is measured (see 0003).
for (const target of targets) {
  let warmed = 0;
  while (warmed < (quick ? 500 : 8000))
    warmed += (await runRequests(target.origin, path, 50, 500)).latenciesMs.length;
}

/** Per target, per round. */
interface Figures {
  mainUs: number[];
  allUs: number[];
  requestsPerSecond: number[];
  p50AddedMs: number[];
}
const figures = new Map<string, Figures>(
  targets.map((target) => [
    target.name,
    { mainUs: [], allUs: [], requestsPerSecond: [], p50AddedMs: [] },
  ]),
);
for (let round = 0; round < rounds; round++) {
  const order = targets.map((_, at) => targets[(at + round) % targets.length] as Target);
  for (const target of order) {
    process.stderr.write(`round ${round + 1}/${rounds}: ${target.name}\n`);
    const figure = figures.get(target.name) as Figures;
    const before = cpuOf(target.pid);
    const saturated = await runRequests(target.origin, path, 50, phaseMs);
    // Let the store worker write this phase's last batch before its CPU is read.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = cpuOf(target.pid);
    const count = saturated.latenciesMs.length;
    figure.mainUs.push((after.main - before.main) / count);
    figure.allUs.push((after.all - before.all) / count);
    figure.requestsPerSecond.push(saturated.requestsPerSecond);
    const direct = await runRequests(upstreamUrl, path, 1, phaseMs / 6);
    const through = await runRequests(target.origin, path, 1, phaseMs / 3);
    figure.p50AddedMs.push(
      percentile(through.latenciesMs, 50) - percentile(direct.latenciesMs, 50),
    );
  }
}

const bare = figures.get('bare') as Figures;
const lines = [
  `pipeline bench: ${rounds} rounds of ${phaseMs / 1000} s at 50 connections, min / **median** / max`,
  '',
  '| path | proxy CPU µs/request, main thread | all threads | all threads vs bare (per round) | requests/s | 1-connection p50 over direct (ms) |',
  '| --- | --- | --- | --- | --- | --- |',
  ...[...figures].map(
    ([name, figure]) =>
      `| ${name} | ${spread(figure.mainUs, 0)} | ${spread(figure.allUs, 0)} | ${spread(
        figure.allUs.map((us, at) => us / (bare.allUs[at] ?? Number.NaN)),
        2,
        '×',
      )} | ${spread(figure.requestsPerSecond, 0)} | ${spread(figure.p50AddedMs, 3)} |`,
  ),
];
process.stdout.write(`${lines.join('\n')}\n`);
rmSync(folder, { recursive: true, force: true });
process.exit(0);
