import { readFileSync } from 'node:fs';
import { extname, relative, resolve } from 'node:path';
import { loadSuite } from '../suites/load-suite.js';
import { caseLines, pendingCases, type PendingCase } from './pending-listing.js';
import { shellCommand } from '../shell-command.js';

/** One suite in the dashboard's pending-cases panel: its drafts awaiting review, or why it could not be read. */
export type PendingSuite =
  | {
      readonly file: string;
      /** The command that reviews this suite's drafts. */
      readonly review: string;
      readonly cases: readonly PendingCase[];
    }
  | { readonly file: string; readonly error: string };

/** What `/calltape/api/pending` answers. */
export interface PendingCasesState {
  readonly suites: readonly PendingSuite[];
}

/** How a suite is named in the listing: relative to `cwd` inside it, absolute outside. */
export function shownSuiteName(file: string, cwd: string): string {
  const path = resolve(cwd, file);
  const near = relative(cwd, path);
  return near === '' || near.startsWith('..') ? path : near;
}

/** Reads each suite now, so a review made elsewhere shows at the next request; a bad file is reported, never thrown. */
export function readPendingCases(files: readonly string[], cwd: string): PendingCasesState {
  return {
    suites: files.map((file): PendingSuite => {
      const path = resolve(cwd, file);
      const shown = shownSuiteName(file, cwd);
      try {
        const suite = loadSuite(path, cwd);
        const text = readFileSync(path, 'utf8');
        const format = extname(path).toLowerCase() === '.jsonl' ? 'jsonl' : 'yaml';
        return {
          file: shown,
          review: `calltape review ${shellCommand([shown])}`,
          cases: pendingCases(suite.drafts, caseLines(text, format), shown),
        };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // Errors name the absolute path; the panel names the file as it was given.
        return {
          file: shown,
          error: message.includes(path) ? message.split(path).join(shown) : `${shown}: ${message}`,
        };
      }
    }),
  };
}
