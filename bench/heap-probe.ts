/**
 * Loaded with `node --import ./dist/bench/heap-probe.js` into a measured process: every thread
 * that loads it (the main thread, and worker threads, which inherit `--import`) keeps the peak
 * physical size of each V8 heap space and writes it to `BENCH_HEAP_DIR/heap-<pid>-<threadId>.json`
 * every 100 ms, so a bench can read where a peak of RSS sat, thread by thread.
 */
import { writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
import { threadId } from 'node:worker_threads';

const dir = process.env['BENCH_HEAP_DIR'];
if (dir) {
  const peak: Record<string, number> = {};
  const file = `${dir}/heap-${process.pid}-${threadId}.json`;
  setInterval(() => {
    let total = 0;
    for (const space of getHeapSpaceStatistics()) {
      peak[space.space_name] = Math.max(peak[space.space_name] ?? 0, space.physical_space_size);
      total += space.physical_space_size;
    }
    peak['total'] = Math.max(peak['total'] ?? 0, total);
    writeFileSync(file, JSON.stringify(peak));
  }, 100).unref();
}
