import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { CalltapeError } from '../../errors.js';
import { parseDuration } from '../../live/duration.js';
import { createLogger } from '../../logger.js';
import { promoteCases } from '../../promote/promote-cases.js';
import { exitCodes } from '../exit-codes.js';
import { guardedAction } from '../guarded-action.js';
import { resolveCassette } from '../resolve-cassette.js';
import { requireCassette } from '../../cassette/sqlite/cassette-files.js';
import { shellCommand } from '../../shell-command.js';
import { isPostgresUrl } from '../../database-url.js';

interface PromoteFlags {
  readonly out: string;
  readonly cassette?: string;
  readonly session?: string;
  readonly shadowDb?: string;
  readonly failing?: boolean;
  readonly since: string;
  readonly config?: string;
  readonly mocksDir?: string;
}

/** `calltape cases promote`: draft cases from real sessions, with their cassette slice and mocks. */
export function registerCasesCommand(program: Command): void {
  const cases = program.command('cases').description('cases taken from real traffic');
  cases
    .command('promote')
    .description(
      'turn a recorded session (from a cassette, or picked from a shadow-scoring database) into a draft case (review: pending): its prompt, the calls it made as the starting expectation, a cassette slice so it replays offline and mocks for the tool results it saw',
    )
    .requiredOption(
      '--out <suite>',
      'the suite to write (.yaml/.json); an existing suite gets the cases appended',
    )
    .option(
      '--cassette <name>',
      "the cassette holding the sessions' round trips (a name in recordings/ or a path; default: the proxy configuration's cassette)",
    )
    .option('--session <id>', 'the session to promote')
    .option(
      '--shadow-db <file>',
      'pick sessions from this shadow-scoring database (their policy failures become the reason in the provenance)',
    )
    .option('--failing', 'every session that failed a policy within --since (needs --shadow-db)')
    .option('--since <duration>', 'with --failing: how far back (30m, 1h, 7d)', '1h')
    .option(
      '--mocks-dir <folder>',
      "the folder every promoted case's mock file goes into (default: mocks/promoted/ beside the suite)",
    )
    .option('--config <file>', 'proxy configuration (cassette, match rules, redaction)')
    .action(async (flags: PromoteFlags) => {
      process.exitCode = await guardedAction(program, async () => {
        const cwd = process.cwd();
        if ((flags.session === undefined) === (flags.failing !== true))
          throw new CalltapeError(
            'CONFIG_INVALID',
            'command line: give exactly one of --session <id> and --failing',
          );
        const window = parseDuration(flags.since);
        if (window === undefined)
          throw new CalltapeError(
            'CONFIG_INVALID',
            `command line: --since: "${flags.since}" is not a duration (e.g. 30m, 1h, 7d)`,
          );
        const { config } = loadConfig({ config: flags.config }, process.env, cwd);
        const shadowDb =
          flags.shadowDb ??
          (flags.failing
            ? (process.env['CALLTAPE_SHADOW_DB'] ?? config.shadow.database)
            : undefined);
        const cassette = resolve(
          cwd,
          flags.cassette ? resolveCassette(flags.cassette, cwd) : config.cassette,
        );
        // A mistyped name is the usual cause: name the nearest cassette and how to record one.
        requireCassette(cassette, 'calltape record --cassette <name> -- <your agent>');
        const out = resolve(cwd, flags.out);
        const shown = (path: string): string => relative(cwd, path) || path;
        const promotion = await promoteCases({
          config,
          out,
          cassette,
          ...(shadowDb !== undefined
            ? { shadowDb: isPostgresUrl(shadowDb) ? shadowDb : resolve(cwd, shadowDb) }
            : {}),
          selection:
            flags.session !== undefined
              ? { session: flags.session }
              : { failingSince: Date.now() - window },
          logger: createLogger('error'),
          ...(flags.mocksDir !== undefined ? { mocksDir: resolve(cwd, flags.mocksDir) } : {}),
        });
        const lines: string[] = [];
        for (const plan of promotion.promoted) {
          const reason = plan.testCase['provenance'];
          const failures =
            typeof reason === 'object' && reason !== null && !Array.isArray(reason)
              ? reason['failures']
              : undefined;
          lines.push(
            `  ${plan.testId}  session ${plan.sessionId} · ${plan.answers.length} round trip(s)${plan.mocks ? ` · ${plan.mocks.file}` : ''}`,
            ...(Array.isArray(failures)
              ? failures.map((failure) => `    failed: ${String(failure)}`)
              : []),
            ...plan.notes.map((note) => `    note: ${note}`),
          );
        }
        for (const { sessionId, reason } of promotion.skipped)
          lines.push(`  skipped session ${sessionId}: ${reason}`);
        if (promotion.promoted.length === 0) {
          process.stdout.write(
            `${flags.failing ? `no session failed a policy in the last ${flags.since} that could be promoted` : 'nothing to promote'}; ${shown(out)} is unchanged\n${lines.map((line) => `${line}\n`).join('')}`,
          );
          // Failing sessions none of which could be taken is a batch that did nothing it was asked; ones promoted before leave nothing to do.
          return promotion.skipped.some((skip) => !skip.promoted) ? exitCodes.usage : exitCodes.ok;
        }
        process.stdout.write(
          `promoted ${promotion.promoted.length} session(s) to draft cases (review: pending) in ${shown(out)}:\n${lines.map((line) => `${line}\n`).join('')}they replay offline from ${shown(promotion.cassette)}${promotion.promoted.some((plan) => plan.mocks) ? `, their tool mocks are in ${shown(promotion.mocksDir)}/` : ''}\nnext: calltape review ${shellCommand([shown(out)])}\n`,
        );
        return exitCodes.ok;
      });
    });
}
