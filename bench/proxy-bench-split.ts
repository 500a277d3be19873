import type { ProxyBenchResult, RoundFigures } from './proxy-bench-report.js';
import { fixed, spread } from './round-spread.js';

/** The median of per-round values (the lower middle for an even count, as `spread` shows it). */
function median(values: readonly number[]): number {
  const sorted = [...values].filter(Number.isFinite).sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

/**
 * The section of docs/benchmarks.md that splits calltape's gap to the bare pipe into what its HTTP
 * pipeline costs (`--mode passthrough`: nothing captured or stored) and what recording adds, and
 * the CPU per request issue 21's throughput target leaves a proxy on this machine's cores.
 */
export function splitSection(result: ProxyBenchResult): string[] {
  const each = <T>(pick: (figure: RoundFigures) => T): T[] => result.figures.map(pick);
  const row = (figure: string, cells: readonly string[]): string =>
    `| ${figure} | ${cells.join(' | ')} |`;
  const ratio = (
    pick: (figure: RoundFigures, path: 'bare' | 'passthrough' | 'calltape') => number | undefined,
    rawDigits: number,
    digits: number,
    unit: string,
    scale = 1,
  ): string[] => [
    spread(
      each((f) => pick(f, 'bare')),
      rawDigits,
    ),
    spread(
      each((f) => pick(f, 'passthrough')),
      rawDigits,
    ),
    spread(
      each((f) => pick(f, 'calltape')),
      rawDigits,
    ),
    ...(['passthrough', 'calltape'] as const).map((path) =>
      spread(
        each((f) => ((pick(f, path) ?? Number.NaN) / (pick(f, 'bare') ?? Number.NaN)) * scale),
        digits,
        unit,
      ),
    ),
  ];
  const idle = result.idleRssMb;
  const { cpus } = result.machine;
  // Saturated, every core is busy: a request costs cpus / throughput of CPU in all. What the load
  // generator and the upstream take of it is fixed by the traffic; the proxy may have the rest.
  const budgets = each((f) => {
    const others = f.fifty.bare.othersCpuUs;
    return others === undefined
      ? Number.NaN
      : (cpus * 1e6) / (0.9 * f.fifty.bare.requestsPerSecond) - others;
  });
  const budget = median(budgets);
  const saturated = (path: 'bare' | 'passthrough' | 'calltape'): number =>
    median(each((f) => f.fifty[path].cpuUs ?? Number.NaN));
  return [
    '## Where the gap is: the pipeline, or recording',
    '',
    'calltape in `--mode passthrough` runs the same HTTP pipeline (routing, the JSON check, undici to the upstream, the',
    'answer relayed) and captures and stores nothing; it ran in the same rounds as the others, its order rotating too.',
    '',
    '| figure | bare | calltape passthrough | calltape recording | passthrough vs bare | recording vs bare |',
    '| --- | --- | --- | --- | --- | --- |',
    row(
      'non-streamed throughput, 50 connections (requests/s)',
      ratio((f, path) => f.fifty[path].requestsPerSecond, 0, 0, '%', 100),
    ),
    row(
      'per-event p99, 128 streams (ms)',
      ratio((f, path) => f.streams[path].eventP99, 2, 2, '×'),
    ),
    row(
      'RSS at 128 streams, peak (MB)',
      ratio((f, path) => f.streams[path].rssMb, 0, 2, '×'),
    ),
    row('RSS idle (MB)', [
      spread([idle?.bare], 0),
      spread([idle?.passthrough], 0),
      spread([idle?.calltape], 0),
      idle?.passthrough === undefined ? '–' : `${fixed(idle.passthrough / idle.bare, 2)}×`,
      idle === undefined ? '–' : `${fixed(idle.calltape / idle.bare, 2)}×`,
    ]),
    row(
      `proxy CPU per request, all threads, ${result.settings.pacedRate} requests/s (µs)`,
      ratio((f, path) => f.fifty[path].pacedCpuUs, 0, 2, '×'),
    ),
    row(
      '… of which the main thread (µs)',
      ratio((f, path) => f.fifty[path].pacedMainCpuUs, 0, 2, '×'),
    ),
    row(
      'proxy CPU per request, all threads, 50 connections saturated (µs)',
      ratio((f, path) => f.fifty[path].cpuUs, 0, 2, '×'),
    ),
    row(
      'load generator and upstream CPU per request in that phase (µs)',
      ratio((f, path) => f.fifty[path].othersCpuUs, 0, 2, '×'),
    ),
    '',
    Number.isFinite(budget)
      ? `**What 90% of bare's throughput leaves a proxy here.** Saturated, all ${cpus} cores are busy, so a request costs` +
        ` ${cpus} s of CPU ÷ the throughput in all. At 90% of the bare pipe's throughput that is` +
        ` ${fixed((cpus * 1e6) / (0.9 * median(each((f) => f.fifty.bare.requestsPerSecond))), 0)} µs per request; the load` +
        ` generator and upstream take ${fixed(median(each((f) => f.fifty.bare.othersCpuUs ?? Number.NaN)), 0)} µs of it,` +
        ` which leaves the proxy **at most ${fixed(budget, 0)} µs** of CPU per request over all its threads (median of per-round` +
        ` budgets ${spread(budgets, 0)}). Saturated, the bare pipe spends ${fixed(saturated('bare'), 0)} µs, calltape's pipeline` +
        ` alone ${fixed(saturated('passthrough'), 0)} µs and calltape recording ${fixed(saturated('calltape'), 0)} µs.`
      : 'The load generator and upstream CPU was not measured in this run.',
    '',
  ];
}
