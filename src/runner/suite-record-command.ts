import { relative } from 'node:path';
import { shellCommand } from '../shell-command.js';

/**
 * The `calltape test` command that records `suiteFile` again, as a user pastes it: the suite
 * shown from the working folder, every word quoted where a shell needs it.
 */
export function suiteRecordCommand(suiteFile: string): string {
  return shellCommand([
    'calltape',
    'test',
    relative(process.cwd(), suiteFile) || suiteFile,
    '--mode',
    'record',
  ]);
}
