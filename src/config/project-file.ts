import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Whether a file lies outside the project (`root`: the working directory calltape runs in),
 * symbolic links followed. Errors never echo what such a file holds: a judges file whose
 * `guidelines:` pointed at `~/.npmrc` once printed its auth token in a parse error.
 */
export function outsideProject(path: string, root: string): boolean {
  const where = relative(realPath(root), realPath(path));
  return where === '..' || where.startsWith(`..${sep}`) || isAbsolute(where);
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Why a file could not be read or parsed, in words that quote none of its content when it is
 * outside the project: the error's code and position only (a JSON or YAML parser's message
 * quotes the text around the fault). Inside the project the parser's own message is kept, the
 * most helpful there is.
 */
export function readFailure(error: unknown, path: string, root: string): string {
  const failure = error as { message?: unknown; code?: unknown; linePos?: unknown };
  if (!outsideProject(path, root)) return String(failure.message ?? error);
  if (error instanceof SyntaxError) {
    const position = /at position (\d+)/.exec(error.message)?.[1];
    return `not valid JSON${position === undefined ? '' : ` at position ${position}`} (content not shown: the file is outside the project)`;
  }
  if (error instanceof Error && error.name === 'YAMLParseError') {
    const start = Array.isArray(failure.linePos)
      ? (failure.linePos[0] as { line?: unknown; col?: unknown } | undefined)
      : undefined;
    const at =
      typeof start?.line === 'number' && typeof start.col === 'number'
        ? ` at line ${start.line}, column ${start.col}`
        : '';
    return `not valid YAML (${String(failure.code)}${at}; content not shown: the file is outside the project)`;
  }
  // A file system error names the path and the reason, never the content.
  return typeof failure.code === 'string' ? failure.code : 'unreadable';
}

/**
 * A parser's account of a fault in a file: its message inside the project, only that the
 * content is not shown outside it (the message quotes the text around the fault).
 */
export function parseDetail(error: unknown, path: string, root: string): string {
  if (outsideProject(path, root)) return 'content not shown: the file is outside the project';
  return error instanceof Error ? error.message : String(error ?? '');
}
