import { isValidCassetteName } from '../cassette/cassette-name.js';
import type { ProxyMode } from '../config/config.js';

// eslint-disable-next-line no-control-regex -- control characters are exactly what an id may not hold
const controlCharacter = /[\u0000-\u001f\u007f]/;

/** What a request's path prefix says: the cassette and mode to use, the session, and the path to forward. */
export interface SessionRoute {
  /** From `/c/<name>` or `/c/<name>:<mode>`; undefined means the proxy's own cassette and mode. */
  readonly cassette: { readonly name: string; readonly mode: ProxyMode | undefined } | undefined;
  readonly sessionId: string | undefined;
  /** Path without the prefixes and without the query. */
  readonly path: string;
  /** Query string including `?`, or ''. */
  readonly query: string;
}

const modes: readonly ProxyMode[] = ['record', 'replay', 'auto', 'diff', 'passthrough'];
const cassettePrefix = /^\/c\/([^/]+)(\/.*)?$/;
const sessionPrefix = /^\/s\/([^/]+)(\/.*)?$/;

/** Session ids: 1–200 printable characters. */
export function isValidSessionId(id: string): boolean {
  return id.length > 0 && id.length <= 200 && !controlCharacter.test(id);
}

/**
 * Reads `/c/<cassette>[:<mode>]/` and then `/s/<session>/` prefixes (the session may also come
 * from the `x-calltape-session` header). Returns an error message for a malformed prefix.
 */
export function parseSessionRoute(
  url: string,
  header: string | string[] | undefined,
): SessionRoute | { readonly error: string } {
  const queryAt = url.indexOf('?');
  let path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt);

  let cassette: SessionRoute['cassette'];
  const cassetteMatch = cassettePrefix.exec(path);
  if (cassetteMatch) {
    const [name = '', mode] = decode(cassetteMatch[1] ?? '')?.split(':') ?? [];
    if (!isValidCassetteName(name))
      return {
        error: `calltape: "${name}" is not a valid cassette name (letters, digits, . _ -; it may not leave the recordings folder)`,
      };
    if (mode !== undefined && !modes.includes(mode as ProxyMode))
      return {
        error: `calltape: "${mode}" is not a mode (record, replay, auto, diff, passthrough)`,
      };
    cassette = { name, mode: mode as ProxyMode | undefined };
    path = cassetteMatch[2] ?? '/';
  }

  const sessionMatch = sessionPrefix.exec(path);
  if (sessionMatch) {
    const id = decode(sessionMatch[1] ?? '');
    if (id === undefined || !isValidSessionId(id))
      return {
        error:
          'calltape: the session id (path prefix /s/<id>/ or x-calltape-session header) must be 1-200 printable characters',
      };
    return { cassette, sessionId: id, path: sessionMatch[2] ?? '/', query };
  }
  const fromHeader = Array.isArray(header) ? header[0] : header;
  if (fromHeader !== undefined && !isValidSessionId(fromHeader))
    return {
      error:
        'calltape: the session id (path prefix /s/<id>/ or x-calltape-session header) must be 1-200 printable characters',
    };
  return { cassette, sessionId: fromHeader, path, query };
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
