import { existsSync, readFileSync } from 'node:fs';
import type { ProbeWindow } from './process-probe.js';

/** Asks a process running `process-probe` for its window so far (SIGUSR2) and waits for the answer. */
export async function readProbe(pid: number, file: string): Promise<ProbeWindow> {
  const lines = (): string[] =>
    existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  const before = lines().length;
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; waited < 10_000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = lines();
    if (now.length > before) return JSON.parse(now[now.length - 1] as string) as ProbeWindow;
  }
  throw new Error(`process ${pid} did not answer the probe`);
}

/** Highest RSS (MB) of a process, sampled every 100 ms while `work` runs. */
export async function peakRssWhile<T>(pid: number, work: Promise<T>): Promise<[T, number]> {
  let peak = 0;
  const sample = (): void => {
    const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    peak = Math.max(peak, Number(match?.[1] ?? 0) / 1024);
  };
  const timer = setInterval(sample, 100);
  try {
    const result = await work;
    sample();
    return [result, Math.round(peak * 10) / 10];
  } finally {
    clearInterval(timer);
  }
}
