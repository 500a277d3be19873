import cliProgress from 'cli-progress';
import type { CaseResult } from '../../scoring/case-result.js';

/** A progress bar on a terminal; in CI logs a plain line at every tenth of the cases. */
export function startProgress(total: number): {
  tick: (result: CaseResult) => void;
  stop: () => void;
} {
  if (!process.stderr.isTTY || process.env['CI']) {
    let done = 0;
    let failed = 0;
    const step = Math.max(1, Math.ceil(total / 10));
    return {
      tick: (result) => {
        done++;
        if (result.status !== 'pass') failed++;
        if (done % step === 0 || done === total)
          process.stderr.write(
            `calltape test: ${done}/${total} cases run, ${failed} not passing\n`,
          );
      },
      stop: () => undefined,
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: 'calltape test [{bar}] {value}/{total} cases · {failed} not passing',
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let failed = 0;
  bar.start(total, 0, { failed });
  return {
    tick: (result) => {
      if (result.status !== 'pass') failed++;
      bar.increment(1, { failed });
    },
    stop: () => bar.stop(),
  };
}
