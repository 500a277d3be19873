/**
 * Peak resident memory of `calltape proxy --mode record` (and the bare pipe beside it) under
 * bursts of 128 concurrent streams, after a warm-up, with the peak physical size of every V8
 * heap space per thread (bench/heap-probe.ts). RSS hardly moves with CPU contention, so this
 * runs on a shared machine. `npm run bench:memory` (not in `npm run bench`); flags: `node dist/bench/stream-memory.js
 * [--bursts N] [--warm N] [--no-bare] [-- extra proxy flags]`.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runRequests, runStreams } from './measure.js';
import { proxyArgs, startChild } from './start-child.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const flag = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const bursts = flag('--bursts', 3);
const warm = flag('--warm', 3000);
const extra = process.argv.includes('--') ? process.argv.slice(process.argv.indexOf('--') + 1) : [];
const folder = mkdtempSync(join(tmpdir(), 'calltape-memory-'));
const probe = ['--import', join(root, 'dist/bench/heap-probe.js')];
const env = { CALLTAPE_CONFIG: join(root, 'proxy.config.json'), BENCH_HEAP_DIR: folder };

const upstream = await startChild(
  root,
  [join(root, 'dist/bench/bench-upstream.js')],
  {},
  /^(\d+)\n/,
);
const upstreamUrl = `http://127.0.0.1:${upstream.port}`;
const targets: { name: string; origin: string; pid: number }[] = [];
const calltape = await startChild(
  root,
  [
    ...probe,
    ...proxyArgs(root, upstreamUrl, 'record', '--cassette', join(folder, 'c.sqlite'), ...extra),
  ],
  env,
  /listening on http:\/\/127\.0\.0\.1:(\d+)/,
);
targets.push({
  name: 'calltape',
  origin: `http://127.0.0.1:${calltape.port}`,
  pid: calltape.child.pid ?? 0,
});
if (!process.argv.includes('--no-bare')) {
  const bare = await startChild(
    root,
    [...probe, join(root, 'dist/bench/bare-proxy.js')],
    { ...env, BENCH_UPSTREAM: upstreamUrl },
    /^(\d+)\n/,
  );
  targets.push({ name: 'bare', origin: `http://127.0.0.1:${bare.port}`, pid: bare.child.pid ?? 0 });
}

const rssMb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const path = '/v1/chat/completions';
await new Promise((resolve) => setTimeout(resolve, 2000));
for (const target of targets) {
  const idle = rssMb(target.pid);
  let warmed = 0;
  while (warmed < warm)
    warmed += (await runRequests(target.origin, path, 8, 500)).latenciesMs.length;
  await runStreams(target.origin, path, 16, 4);
  const peaks: number[] = [];
  for (let burst = 0; burst < bursts; burst++) {
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(target.pid))), 20);
    await runStreams(target.origin, path, 128, 3);
    clearInterval(sampler);
    peaks.push(Math.round(Math.max(peak, rssMb(target.pid))));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  const heaps = readdirSync(folder)
    .filter((file) => file.startsWith(`heap-${target.pid}-`))
    .map((file) => {
      const spaces = JSON.parse(readFileSync(join(folder, file), 'utf8')) as Record<string, number>;
      const mb = Object.entries(spaces).map(
        ([space, bytes]) => `${space.replace('_space', '')} ${(bytes / 2 ** 20).toFixed(1)}`,
      );
      return `  thread ${file.replace(/^heap-\d+-|\.json$/g, '')}: ${mb.join(', ')}`;
    });
  process.stdout.write(
    `${target.name}: idle ${Math.round(idle)} MB, peak per burst ${peaks.join(' / ')} MB\n${heaps.join('\n')}\n`,
  );
}
process.exit(0);
