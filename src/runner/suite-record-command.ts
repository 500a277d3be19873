import { relative } from 'node:path';
import { shellCommand } from '../shell-command.js';

/**
 * The `calltape test` command that records `suiteFiles` again, as a user pastes it: the suite
 * files shown from the working folder, with the `--cassette` the run was given (without it the
 * command would record into the suite's own cassette), every word quoted where a shell needs it.
 */
export function suiteRecordCommand(suiteFiles: readonly string[], cassetteFlag?: string): string {
  return shellCommand([
    'calltape',
    'test',
    ...suiteFiles.map((file) => relative(process.cwd(), file) || file),
    ...(cassetteFlag === undefined ? [] : ['--cassette', cassetteFlag]),
    '--mode',
    'record',
  ]);
}
