/** A request path split into the session it names (if any) and the path to forward. */
export interface SessionRoute {
  readonly sessionId: string | undefined;
  /** Path without the `/s/<id>` prefix and without the query. */
  readonly path: string;
  /** Query string including `?`, or ''. */
  readonly query: string;
}

const sessionPrefix = /^\/s\/([^/]+)(\/.*)?$/;

/** Session ids: 1–200 printable characters. */
export function isValidSessionId(id: string): boolean {
  return id.length > 0 && id.length <= 200 && !/[\u0000-\u001f\u007f]/.test(id);
}

/**
 * Reads the session from the `/s/<id>/…` path prefix, else from the `x-calltape-session` header.
 * Returns undefined for a malformed id (the caller answers 400).
 */
export function parseSessionRoute(url: string, header: string | string[] | undefined): SessionRoute | undefined {
  const queryAt = url.indexOf('?');
  const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt);
  const match = sessionPrefix.exec(pathname);
  if (match) {
    let id: string;
    try {
      id = decodeURIComponent(match[1] ?? '');
    } catch {
      return undefined;
    }
    return isValidSessionId(id) ? { sessionId: id, path: match[2] ?? '/', query } : undefined;
  }
  const fromHeader = Array.isArray(header) ? header[0] : header;
  if (fromHeader !== undefined && !isValidSessionId(fromHeader)) return undefined;
  return { sessionId: fromHeader, path: pathname, query };
}
