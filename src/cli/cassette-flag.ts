import { existsSync } from 'node:fs';
import { missingCassetteHint } from '../cassette/missing-cassette-hint.js';
import { CalltapeError } from '../errors.js';
import { suiteRecordCommand } from '../runner/suite-record-command.js';
import type { Suite } from '../scoring/suite-types.js';
import { resolveCassette } from './resolve-cassette.js';

/**
 * `calltape test --cassette NAME`: the suites with that cassette in place of their own. When it
 * must exist (replay) and does not, it fails before anything starts, naming the nearest cassette
 * beside it or beside the suites' own (a typo is the usual cause), and the record command with
 * `--cassette` kept, so it records into the cassette asked for.
 */
export function withCassetteFlag(
  suites: readonly Suite[],
  flag: string,
  cwd: string,
  mustExist: boolean,
): Suite[] {
  const cassette = resolveCassette(flag, cwd);
  if (mustExist && !existsSync(cassette))
    throw new CalltapeError(
      'STORE_IO',
      `${cassette}: no such cassette to replay`,
      missingCassetteHint(
        cassette,
        suiteRecordCommand(
          suites.map((suite) => suite.file),
          flag,
        ),
        suites.map((suite) => suite.cassette),
      ),
    );
  return suites.map((suite) => ({ ...suite, cassette }));
}
