import { relative } from 'node:path';
/**
 * Where a database named on the command line, in config or in the environment lives: a
 * `postgres://` (or `postgresql://`) URL names a PostgreSQL database shared by a fleet, anything
 * else is a SQLite file. Pure.
 */

/** Whether a database location is a PostgreSQL URL rather than a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(location);
}

/**
 * A database location safe to print: a URL's password (and any `password=` query parameter) is
 * replaced by `***`, so credentials never reach a message, log or report. A file path is as given.
 */
export function printableDatabase(location: string): string {
  if (!isPostgresUrl(location)) return location;
  return location
    .replace(/^(postgres(?:ql)?:\/\/[^:@/?#]*):[^@/?#]*@/i, '$1:***@')
    .replace(/([?&]password=)[^&#]*/gi, '$1***');
}

/** A message with every occurrence of a database URL's secret parts redacted (driver errors may quote it). */
export function redactDatabaseUrl(message: string, location: string): string {
  if (!isPostgresUrl(location)) return message;
  let text = message.split(location).join(printableDatabase(location));
  const password = /^postgres(?:ql)?:\/\/[^:@/?#]*:([^@/?#]+)@/i.exec(location)?.[1];
  if (password) {
    text = text.split(password).join('***');
    const decoded = safeDecode(password);
    if (decoded) text = text.split(decoded).join('***');
  }
  return text;
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** A database location as messages show it: a file relative to `cwd`, a URL without its password. */
export function shownDatabase(location: string, cwd: string): string {
  return isPostgresUrl(location)
    ? printableDatabase(location)
    : relative(cwd, location) || location;
}
