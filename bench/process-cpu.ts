import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time (µs) one thread has run so far, from its schedstat (ns, exact; `/proc/<pid>/stat`'s
 * clock ticks are 10 ms apart, too coarse for a phase of a second); undefined once it has ended.
 */
export function threadCpuUs(pid: number | 'self', tid: string): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return undefined;
  }
}

/**
 * CPU time (µs) another process has run so far, summed over its threads. A thread that ended
 * before the read is not counted, which is why this is read around short phases.
 */
export function threadsCpuUs(pid: number): number {
  let us = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) us += threadCpuUs(pid, task) ?? 0;
  return us;
}

/** The ids of this process's threads now, to tell the threads a step starts (`newThreadsCpu`). */
export function ownThreads(): ReadonlySet<string> {
  return new Set(readdirSync('/proc/self/task'));
}

/**
 * The CPU time (µs) so far of the threads this process has started since `before` was read
 * (`ownThreads()`): a worker's, read around the rounds it handles.
 */
export function newThreadsCpu(before: ReadonlySet<string>): () => number {
  const started = readdirSync('/proc/self/task').filter((tid) => !before.has(tid));
  return () => started.reduce((sum, tid) => sum + (threadCpuUs('self', tid) ?? 0), 0);
}
