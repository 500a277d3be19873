import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CalltapeError } from '../../errors.js';
import { loadRunView, listRuns, type RunSources } from '../../runner/load-run-view.js';
import { defaultSet, type Rating } from '../../ratings/rating.js';
import { ratingsFromText, ratingsToYaml } from '../../ratings/ratings-document.js';
import { RatingStore, ratingsFile } from '../../ratings/rating-store.js';
import { rateOnTerminal } from '../../ratings/tty-rater.js';
import { exitCodes } from '../exit-codes.js';
import { guardedAction } from '../guarded-action.js';
import { runsDb } from './runs-command.js';
import { writePrivateFile } from '../../private-files.js';

interface RateFlags {
  readonly set: string;
  readonly ratings?: string;
  readonly runsDb?: string;
  readonly mark?: string[];
  readonly note?: string;
  readonly rater?: string;
}

/** `calltape rate` (terminal or --mark) and `calltape ratings export|import`: the golden set. */
export function registerRateCommands(program: Command): void {
  program
    .command('rate')
    .description(
      'rate recorded runs pass/fail on the terminal (a cassette, or run:<id>), or mark them with --mark',
    )
    .argument(
      '[runs]',
      'a cassette (every session in it) or run:<id> (every case of a stored test run)',
    )
    .option('--set <name>', 'the named set the ratings go to', defaultSet)
    .option('--ratings <file>', 'the ratings database (default recordings/calltape-ratings.sqlite)')
    .option('--runs-db <file>', 'where stored test runs are read (for run:<id>)')
    .option(
      '--mark <run=verdict...>',
      'rate without a terminal: <cassette>#<session>=pass, run:<id>/<case>=fail',
    )
    .option('--note <text>', 'with --mark: the note every marked rating carries')
    .option('--rater <name>', 'who is rating', process.env['USER'])
    .action(async (target: string | undefined, flags: RateFlags) => {
      process.exitCode = await guardedAction(program, async () => {
        const sources: RunSources = { cwd: process.cwd(), runsDb: runsDb(flags) };
        // What to rate is checked before anything is opened: a mistyped cassette is named as such
        // (with the nearest name), and no ratings database is created for a command that fails.
        const runs = flags.mark || target === undefined ? undefined : listRuns(target, sources);
        if (!flags.mark && runs === undefined)
          throw new CalltapeError(
            'CONFIG_INVALID',
            'command line: name the runs to rate (a cassette, or run:<id>), or give --mark <run>=pass|fail',
          );
        if (runs && !process.stdin.isTTY)
          throw new CalltapeError(
            'CONFIG_INVALID',
            'calltape rate needs a terminal to show runs and read keys',
            'In scripts, rate with --mark <run>=pass|fail.',
          );
        const store = new RatingStore(ratingsFile(flags.ratings, sources.cwd));
        try {
          if (!runs) return mark(store, flags, sources);
          await rateOnTerminal({
            store,
            set: flags.set,
            runs,
            view: (run) => loadRunView(run, sources),
            ...(flags.rater ? { rater: flags.rater } : {}),
            input: process.stdin,
            output: process.stdout,
          });
          return exitCodes.ok;
        } finally {
          store.close();
        }
      });
    });

  const ratings = program
    .command('ratings')
    .description('golden sets: export to a reviewable YAML file, import it back');
  ratings
    .command('export')
    .description('write ratings as YAML (every set, or --set), sorted for diffs')
    .option('--set <name>', 'only this set')
    .option('--ratings <file>', 'the ratings database')
    .option('--out <file>', 'write here instead of standard output')
    .action(async (flags: { set?: string; ratings?: string; out?: string }) => {
      process.exitCode = await guardedAction(program, () => {
        const store = new RatingStore(ratingsFile(flags.ratings, process.cwd()), {
          readonly: true,
        });
        try {
          const names = flags.set ? [flags.set] : store.sets();
          const text = ratingsToYaml(new Map(names.map((name) => [name, store.list(name)])));
          if (flags.out) writePrivateFile(resolve(flags.out), text);
          else process.stdout.write(text);
          return exitCodes.ok;
        } finally {
          store.close();
        }
      });
    });
  ratings
    .command('import')
    .description(
      'read a ratings YAML file into the database (a rating for the same run and set is replaced)',
    )
    .argument('<file>', 'a file written by calltape ratings export')
    .option('--ratings <file>', 'the ratings database')
    .action(async (file: string, flags: { ratings?: string }) => {
      process.exitCode = await guardedAction(program, () => {
        const path = resolve(file);
        let text: string;
        try {
          text = readFileSync(path, 'utf8');
        } catch (error) {
          throw new CalltapeError(
            'CONFIG_INVALID',
            `${path}: cannot read the ratings file: ${(error as Error).message}`,
          );
        }
        const sets = ratingsFromText(text, path);
        const store = new RatingStore(ratingsFile(flags.ratings, process.cwd()));
        try {
          for (const [name, list] of sets) store.putAll(name, list);
          process.stdout.write(
            `imported ${[...sets].map(([name, list]) => `${list.length} rating(s) into "${name}"`).join(', ') || 'no ratings'} (${store.path})\n`,
          );
          return exitCodes.ok;
        } finally {
          store.close();
        }
      });
    });
}

/** Every mark is checked (syntax, and that its run still exists) before any is written. */
function mark(store: RatingStore, flags: RateFlags, sources: RunSources): number {
  const at = new Date().toISOString();
  const ratings = (flags.mark ?? []).map((text): Rating => {
    const match = /^(.+)=(pass|fail)$/.exec(text);
    if (!match?.[1] || !match[2])
      throw new CalltapeError('CONFIG_INVALID', `--mark "${text}": write <run>=pass or <run>=fail`);
    loadRunView(match[1], sources);
    return {
      run: match[1],
      rating: match[2] as Rating['rating'],
      ...(flags.note ? { note: flags.note } : {}),
      ...(flags.rater ? { rater: flags.rater } : {}),
      at,
    };
  });
  store.putAll(flags.set, ratings);
  process.stdout.write(
    `${ratings.length} rating(s) stored in ${store.path} (set "${flags.set}")\n`,
  );
  return exitCodes.ok;
}
