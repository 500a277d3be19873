import { resolveDatabase } from '../../runner/run-store.js';
import type { Command } from 'commander';
import { CalltapeError } from '../../errors.js';
import { parseDuration } from '../../live/duration.js';
import { shadowReport } from '../../live/shadow-report.js';
import { shadowReportText } from '../../live/shadow-report-text.js';
import { exitCodes, reportError } from '../exit-codes.js';
import { terminalSafe } from '../../terminal-safe.js';

/** `calltape shadow report`: what live shadow scoring found, from its database. */
export function registerShadowCommands(program: Command): void {
  const shadow = program.command('shadow').description('live shadow scoring results');
  shadow
    .command('report')
    .description(
      'pass rates per tool, policy and model, and the worst offenders, over a recent window',
    )
    .option('--since <duration>', 'how far back: 30m, 1h, 7d', '1h')
    .option(
      '--db <file>',
      'the shadow database (default: CALLTAPE_SHADOW_DB, else recordings/calltape-shadow.sqlite)',
    )
    .option('--json', 'print the report as JSON')
    .action((flags: { since: string; db?: string; json?: boolean }) => {
      try {
        const window = parseDuration(flags.since);
        if (window === undefined)
          throw new CalltapeError(
            'CONFIG_INVALID',
            `--since: "${flags.since}" is not a duration (e.g. 30m, 1h, 7d)`,
          );
        const path = resolveDatabase(
          flags.db ?? process.env['CALLTAPE_SHADOW_DB'] ?? 'recordings/calltape-shadow.sqlite',
        );
        const report = shadowReport(path, Date.now() - window);
        process.stdout.write(
          flags.json
            ? `${JSON.stringify(report, null, 2)}\n`
            : terminalSafe(shadowReportText(report)),
        );
        process.exitCode = exitCodes.ok;
      } catch (error) {
        process.exitCode = reportError(error, program.opts<{ debug?: boolean }>().debug === true);
      }
    });
}
