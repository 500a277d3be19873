import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time (µs) another process has run so far, summed over its threads' schedstat (ns, exact),
 * not `/proc/<pid>/stat`'s clock ticks, which are 10 ms apart: too coarse for a phase of a second.
 * A thread that ended before the read is not counted, which is why this is read around short phases.
 */
export function threadsCpuUs(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ns / 1000;
}
