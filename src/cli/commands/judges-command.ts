import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { CalltapeError } from '../../errors.js';
import { compareJudges } from '../../judges/compare-judges.js';
import { comparisonHtml } from '../../judges/comparison-html.js';
import { loadJudges } from '../../judges/load-judges.js';
import { renderComparison } from '../../judges/render-comparison.js';
import { loadRatedRuns, runJudges } from '../../runner/run-judges.js';
import { defaultSet } from '../../ratings/rating.js';
import { RatingStore, ratingsFile } from '../../ratings/rating-store.js';
import { exitCodes } from '../exit-codes.js';
import { guardedAction } from '../guarded-action.js';
import { resolveCassette } from '../resolve-cassette.js';
import { runsDb } from './runs-command.js';
import { terminalSafe } from '../../terminal-safe.js';
import { writePrivateFile } from '../../private-files.js';

interface CompareFlags {
  readonly ratings?: string;
  readonly set: string;
  readonly judges: string;
  readonly cassette: string;
  readonly mode: string;
  readonly json?: string;
  readonly html?: string;
  readonly runsDb?: string;
  readonly config?: string;
  readonly upstream?: string;
  readonly anthropicUpstream?: string;
}

/** Below this many rated runs, κ and F1 swing by a whole band with one rating: warn. */
const trustworthySet = 20;

/** `calltape judges compare`: every candidate judge on every rated run, scored against the people. */
export function registerJudgesCommands(program: Command): void {
  program
    .command('judges')
    .description('find the judge you can trust: compare candidate judges with a rated golden set')
    .command('compare')
    .description(
      'run every judge on every rated run and report agreement (κ, precision/recall of fails, flake rate, cost); exits 3 when a judge could not answer',
    )
    .requiredOption(
      '--judges <file>',
      'the candidate judges (YAML/JSON, config/judges.schema.json)',
    )
    .option('--ratings <file>', 'the ratings database (default recordings/calltape-ratings.sqlite)')
    .option('--set <name>', 'the rated set to compare against', defaultSet)
    .option(
      '--cassette <name>',
      'where judge requests are recorded and replayed (a name in recordings/ or a path)',
      'calltape-judges',
    )
    .option(
      '--mode <mode>',
      'replay (default: offline from the cassette) | record | auto',
      'replay',
    )
    .option('--json <file>', 'write the report as JSON (config/judges-report.schema.json)')
    .option('--html <file>', 'write the report as one self-contained HTML page (the same figures)')
    .option('--runs-db <file>', 'where stored test runs are read (for run:<id>/… ratings)')
    .option('--config <file>', 'proxy configuration to start from (upstream, timeouts, redaction)')
    .option('--upstream <url>', 'OpenAI-compatible origin for record and auto')
    .option('--anthropic-upstream <url>', 'Anthropic origin for record and auto')
    .action(async (flags: CompareFlags) => {
      process.exitCode = await guardedAction(program, async () => {
        const cwd = process.cwd();
        const mode = flags.mode;
        if (mode !== 'replay' && mode !== 'record' && mode !== 'auto')
          throw new CalltapeError(
            'CONFIG_INVALID',
            `command line: --mode: must be one of ["replay","record","auto"] (got "${mode}")`,
          );
        const judges = loadJudges(flags.judges, cwd);
        const ratingsPath = ratingsFile(flags.ratings, cwd);
        if (!existsSync(ratingsPath))
          throw new CalltapeError(
            'CONFIG_INVALID',
            `${relative(cwd, ratingsPath) || ratingsPath}: no ratings yet: judges are compared against runs people rated, and none are`,
            `Rate runs first: calltape rate <cassette> (p pass, f fail, on each run), or import a golden set with calltape ratings import <file>; then compare again.`,
          );
        const store = new RatingStore(ratingsPath, { readonly: true });
        let ratings;
        try {
          ratings = store.list(flags.set);
        } finally {
          store.close();
        }
        if (ratings.length === 0)
          throw new CalltapeError(
            'CONFIG_INVALID',
            `${ratingsFile(flags.ratings, cwd)}: the set "${flags.set}" has no ratings`,
            'Rate runs first: calltape rate <cassette>, or import a golden set with calltape ratings import.',
          );
        if (ratings.length < trustworthySet)
          process.stderr.write(
            `warning: the set "${flags.set}" has ${ratings.length} rated run(s); under ${trustworthySet} the agreement figures are too noisy to choose a judge by: rate more runs\n`,
          );
        const sources = { cwd, runsDb: runsDb(flags) };
        const runs = loadRatedRuns(ratings, sources);
        const { config } = loadConfig(
          {
            config: flags.config,
            upstream: flags.upstream,
            anthropicUpstream: flags.anthropicUpstream,
          },
          process.env,
          cwd,
        );
        const cassette = resolveCassette(flags.cassette, cwd);
        const apiKey =
          process.env['OPENAI_API_KEY'] ?? process.env['ANTHROPIC_API_KEY'] ?? 'sk-calltape-replay';
        const { outcomes, usage } = await runJudges(judges, runs, {
          config,
          mode,
          cassette,
          apiKey,
          sources,
        });
        const comparison = compareJudges(ratings, judges, outcomes, usage);
        process.stdout.write(terminalSafe(renderComparison(comparison)));
        const usesModel = judges.some((judge) => judge.kind === 'llm');
        const report = {
          ratings: flags.ratings ?? 'recordings/calltape-ratings.sqlite',
          set: flags.set,
          judges_file: flags.judges,
          cassette: usesModel ? flags.cassette : null,
          mode,
          ...comparison,
        };
        if (flags.json)
          writePrivateFile(resolve(cwd, flags.json), `${JSON.stringify(report, null, 2)}\n`);
        // Kept beside the ratings it was compared with: calltape view's judges section reads it there.
        const kept = new RatingStore(ratingsPath);
        try {
          kept.putComparison({ at: new Date().toISOString(), report });
        } finally {
          kept.close();
        }
        if (flags.html)
          writePrivateFile(
            resolve(cwd, flags.html),
            comparisonHtml(comparison, { set: flags.set, judgesFile: flags.judges }),
          );
        const unanswered = comparison.judges.filter((judge) => judge.errors > 0);
        for (const judge of unanswered)
          process.stderr.write(
            `JUDGE_UNANSWERED: ${judge.disagreements.find((item) => item.judged === null)?.reason ?? `judge "${judge.name}" could not answer`} (${judge.errors} run(s) unanswered)\n`,
          );
        return unanswered.length > 0 ? exitCodes.infrastructure : exitCodes.ok;
      });
    });
}
