import type { Command } from 'commander';
import { reportError } from './exit-codes.js';

/** Runs a command's body and turns any error into the CLI's message and exit code. */
export async function guardedAction(
  program: Command,
  run: () => number | Promise<number>,
): Promise<number> {
  try {
    return await run();
  } catch (error) {
    return reportError(error, program.opts<{ debug?: boolean }>().debug === true);
  }
}
