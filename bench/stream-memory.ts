/**
 * Peak resident memory of `calltape proxy` (recording, and with `--modes` other modes such as
 * passthrough) and of the bare pipe beside it, under bursts of 128 concurrent streams after a
 * warm-up, with the peak physical size of every V8 heap space per thread (bench/heap-probe.ts).
 * Each run starts every target afresh, one after the other; the last line per target is the
 * median over runs. RSS hardly moves with CPU contention, so this runs on a shared machine.
 * `npm run bench:memory` (not in `npm run bench`); flags: `node dist/bench/stream-memory.js
 * [--bursts N] [--warm N] [--runs N] [--modes record,passthrough] [--smaps] [--no-bare] [-- extra proxy flags]`.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberFlag, textFlag } from './bench-flags.js';
import { runRequests, runStreams } from './measure.js';
import { proxyArgs, proxyListening, startBenchUpstream, startChild } from './start-child.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bursts = numberFlag('--bursts', 3);
const warm = numberFlag('--warm', 3000);
const runs = numberFlag('--runs', 1);
const modes = (textFlag('--modes') ?? 'record').split(',');
const extra = process.argv.includes('--') ? process.argv.slice(process.argv.indexOf('--') + 1) : [];
const folder = mkdtempSync(join(tmpdir(), 'calltape-memory-'));
const probe = ['--import', join(root, 'dist/bench/heap-probe.js')];
const env = { CALLTAPE_CONFIG: join(root, 'proxy.config.json'), BENCH_HEAP_DIR: folder };

const upstream = await startBenchUpstream(root);
const upstreamUrl = upstream.url;

/** One process to measure: how to start it, and its name in the output. */
interface Target {
  readonly name: string;
  start(run: number): Promise<{ child: ChildProcess; port: number }>;
}
const targets: Target[] = modes.map((mode) => ({
  name: `calltape ${mode}`,
  start: (run) =>
    startChild(
      root,
      [
        ...probe,
        ...proxyArgs(
          root,
          upstreamUrl,
          mode,
          '--cassette',
          join(folder, `${mode}-${run}.sqlite`),
          ...extra,
        ),
      ],
      env,
      proxyListening,
    ),
}));
if (!process.argv.includes('--no-bare'))
  targets.push({
    name: 'bare',
    start: () =>
      startChild(
        root,
        [...probe, join(root, 'dist/bench/bare-proxy.js')],
        { ...env, BENCH_UPSTREAM: upstreamUrl },
        /^(\d+)\n/,
      ),
  });

const rssMb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const threads = (pid: number): number =>
  Number(/Threads:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
/** RSS by kind of mapping (`/proc/<pid>/smaps`): the node binary, other files, malloc's main heap, anonymous maps, the largest anonymous ones. */
function smapsSummary(pid: number): string {
  const kinds = new Map<string, number>();
  const anonymous: number[] = [];
  let name = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) name = header[1] ?? '';
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (!rss) continue;
    const kb = Number(rss[1]);
    const kind =
      name === ''
        ? 'anonymous'
        : name.endsWith('/node')
          ? 'node binary'
          : name.startsWith('/')
            ? 'other files'
            : name;
    kinds.set(kind, (kinds.get(kind) ?? 0) + kb);
    if (kind === 'anonymous') anonymous.push(kb);
  }
  const largest = anonymous
    .sort((a, b) => b - a)
    .slice(0, 6)
    .map((kb) => (kb / 1024).toFixed(1));
  return `  smaps: ${[...kinds]
    .filter(([, kb]) => kb >= 512)
    .map(([kind, kb]) => `${kind} ${(kb / 1024).toFixed(1)}`)
    .join(', ')} MB; largest anonymous maps ${largest.join(', ')} MB`;
}
const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const path = '/v1/chat/completions';

/** Idle RSS, then the peak of each burst, of one freshly started target. */
async function measure(target: Target, run: number): Promise<{ idle: number; peaks: number[] }> {
  const { child, port } = await target.start(run);
  const pid = child.pid ?? 0;
  const origin = `http://127.0.0.1:${port}`;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idle = rssMb(pid);
  const idleThreads = threads(pid);
  let warmed = 0;
  while (warmed < warm) warmed += (await runRequests(origin, path, 8, 500)).latenciesMs.length;
  await runStreams(origin, path, 16, 4);
  const peaks: number[] = [];
  for (let burst = 0; burst < bursts; burst++) {
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
    await runStreams(origin, path, 128, 3);
    clearInterval(sampler);
    peaks.push(Math.round(Math.max(peak, rssMb(pid))));
  }
  const smaps = process.argv.includes('--smaps') ? `${smapsSummary(pid)}\n` : '';
  await new Promise((resolve) => setTimeout(resolve, 300));
  const heaps = readdirSync(folder)
    .filter((file) => file.startsWith(`heap-${pid}-`))
    .map((file) => {
      const spaces = JSON.parse(readFileSync(join(folder, file), 'utf8')) as Record<string, number>;
      const mb = Object.entries(spaces).map(
        ([space, bytes]) => `${space.replace('_space', '')} ${(bytes / 2 ** 20).toFixed(1)}`,
      );
      return `  thread ${file.replace(/^heap-\d+-|\.json$/g, '')}: ${mb.join(', ')}`;
    });
  process.stdout.write(
    `${target.name} run ${run + 1}: idle ${Math.round(idle)} MB (${idleThreads} threads), peak per burst ${peaks.join(' / ')} MB\n${smaps}${heaps.join('\n')}\n`,
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  return { idle, peaks };
}

const results = new Map<string, { idle: number; peak: number }[]>();
for (let run = 0; run < runs; run++)
  for (const target of targets) {
    const { idle, peaks } = await measure(target, run);
    results.set(target.name, [
      ...(results.get(target.name) ?? []),
      { idle, peak: Math.max(...peaks) },
    ]);
  }
for (const [name, measured] of results)
  process.stdout.write(
    `${name}: median of ${measured.length} run(s): idle ${Math.round(median(measured.map((m) => m.idle)))} MB, peak ${median(measured.map((m) => m.peak))} MB (peaks ${measured.map((m) => m.peak).join(', ')})\n`,
  );
process.exit(0);
