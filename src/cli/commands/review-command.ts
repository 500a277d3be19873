import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { reviewOnTerminal } from '../../review/tty-review.js';
import { loadSuite } from '../../suites/load-suite.js';
import { renderDrafts } from '../../suites/render-drafts.js';
import { reviewDrafts } from '../../suites/review-drafts.js';
import { exitCodes } from '../exit-codes.js';
import { guardedAction } from '../guarded-action.js';
import { runsDb } from './runs-command.js';
import { terminalSafe } from '../../terminal-safe.js';

interface ReviewFlags {
  readonly accept?: string;
  readonly reject?: string;
  readonly keepRejected?: boolean;
  readonly list?: boolean;
  readonly runsDb?: string;
}

/** `calltape review <suite>`: reviews draft cases on a terminal, lists them, or accepts or rejects them by id. */
export function registerReviewCommand(program: Command): void {
  program
    .command('review')
    .description(
      'review the draft cases of a suite (review: pending) one at a time on a terminal, or list them, or accept / reject them by id: accepted drafts become ordinary cases that calltape test runs and gates',
    )
    .argument('<suite>', 'the suite file (YAML or JSON)')
    .option('--accept <ids>', 'accept these drafts (comma-separated test ids, or all)')
    .option('--reject <ids>', 'reject these drafts (comma-separated test ids, or all remaining)')
    .option(
      '--keep-rejected',
      'keep rejected drafts in the file as review: rejected instead of removing them',
    )
    .option('--list', 'list the drafts and exit (what happens without a terminal)')
    .option('--runs-db <file>', 'where stored test runs are read, for traces named by a run')
    .action(async (file: string, flags: ReviewFlags) => {
      process.exitCode = await guardedAction(program, async () => {
        const cwd = process.cwd();
        const path = resolve(cwd, file);
        const shown = relative(cwd, path) || path;
        if (flags.accept === undefined && flags.reject === undefined) {
          if (flags.list === true || !process.stdin.isTTY) {
            process.stdout.write(terminalSafe(renderDrafts(loadSuite(path, cwd), shown)));
            return exitCodes.ok;
          }
          await reviewOnTerminal({
            path,
            shownPath: shown,
            cwd,
            keepRejected: flags.keepRejected === true,
            editor: process.env['VISUAL'] || process.env['EDITOR'] || 'vi',
            runsDb: runsDb(flags),
            input: process.stdin,
            output: process.stdout,
          });
          return exitCodes.ok;
        }
        const { accepted, rejected } = reviewDrafts(
          path,
          {
            accept: ids(flags.accept),
            reject: ids(flags.reject),
            keepRejected: flags.keepRejected === true,
          },
          cwd,
        );
        const left = loadSuite(path, cwd).drafts.filter(
          (draft) => draft.review === 'pending',
        ).length;
        process.stdout.write(
          `${shown}: ${accepted.length} accepted, ${rejected.length} rejected${rejected.length > 0 ? (flags.keepRejected ? ' (kept as review: rejected)' : ' (removed)') : ''}; ${left} still pending\n`,
        );
        return exitCodes.ok;
      });
    });
}

function ids(text: string | undefined): readonly string[] | 'all' {
  if (text === undefined) return [];
  if (text.trim() === 'all') return 'all';
  return text
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
}
