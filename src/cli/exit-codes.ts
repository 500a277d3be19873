import { isCalltapeError } from '../errors.js';
import { terminalSafe } from '../terminal-safe.js';

/** Process exit codes, stable for scripts and CI. */
export const exitCodes = {
  ok: 0,
  /** Checks or gates failed (used by `calltape test`). */
  failed: 1,
  /** Usage, configuration or input error. */
  usage: 2,
  /** Infrastructure: store I/O, port in use, upstream unreachable where it was required. */
  infrastructure: 3,
} as const;

/** Prints an error the way the CLI reports every failure and returns the exit code it maps to. */
export function reportError(
  error: unknown,
  debug: boolean,
  write: (line: string) => void = (line) => process.stderr.write(`${terminalSafe(line)}\n`),
): number {
  if (isCalltapeError(error)) {
    write(`${error.code}: ${error.message}`);
    if (error.hint) write(`hint: ${error.hint}`);
    if (debug && error.stack) write(error.stack);
    return error.exitCode;
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
    write(`LISTEN_FAILED: ${(error as Error).message}`);
    write('hint: choose another --port (0 picks a free one) or --host.');
    return exitCodes.infrastructure;
  }
  write(
    `calltape: ${debug ? ((error as Error).stack ?? String(error)) : ((error as Error).message ?? String(error))}`,
  );
  if (!debug) write('hint: run again with --debug for a stack trace.');
  return exitCodes.infrastructure;
}
