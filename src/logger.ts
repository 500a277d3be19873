import type { LogLevel } from './config/config.js';

/** Line logger on stderr. Callers never pass headers or bodies, so secrets cannot reach it. */
export interface Logger {
  error(message: string): void;
  /** Something the user should fix though the request was answered (e.g. a base URL off by a `/v1`); shown at level `error` and above. */
  warn(message: string): void;
  info(message: string): void;
  /** Per-request lines: the message is only built when debug logging is on. */
  debug(message: () => string): void;
}

const rank: Record<LogLevel, number> = { silent: 0, error: 1, info: 2, debug: 3 };

export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Logger {
  const enabled = (needed: LogLevel): boolean => rank[level] >= rank[needed];
  return {
    error(message) {
      if (enabled('error')) write(`calltape error: ${message}`);
    },
    warn(message) {
      if (enabled('error')) write(`calltape warning: ${message}`);
    },
    info(message) {
      if (enabled('info')) write(`calltape: ${message}`);
    },
    debug(message) {
      if (enabled('debug')) write(`calltape: ${message()}`);
    },
  };
}
