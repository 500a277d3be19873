/**
 * Where an agent's credentials travel in a request (headers, cookies, query parameters) and the
 * values it sent there: every sink redacts those values wherever they appear, and the store
 * refuses a round that still holds one.
 */

/** Request or response headers as Node gives them: a repeated header is an array. */
export type HeaderMap = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Header names never stored or logged, whatever the configuration says. */
export const secretHeaderNames: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'api-key',
  'x-api-key',
  'x-goog-api-key',
  // An AWS session token (SigV4): with the key id it signs as the agent's role until it expires.
  'x-amz-security-token',
  'cookie',
  'set-cookie',
];

/** Query parameters that carry credentials on some providers (`?key=` on Gemini, `?api-key=` on Azure gateways). */
export const secretQueryNames: readonly string[] = [
  'key',
  'api-key',
  'api_key',
  'apikey',
  'token',
  'access_token',
  'sig',
  'signature',
  'auth',
  'code',
  'refresh_token',
  'id_token',
  'client_secret',
  'password',
];

/** Parameter and argument names whose values are credentials wherever they appear (`api_key`, `accessToken`, `client-secret`…). */
const secretName =
  /(^|[_-]|[a-z])(token|secret|password|passwd|api[_-]?key|apikey|authorization|credentials?|cookie)$/i;

/** Whether an argument or parameter name holds a credential. */
export function isSecretName(name: string): boolean {
  return secretName.test(name);
}

/**
 * Whether a query parameter (as written in the query, percent-encoded or not) carries a
 * credential: one of `secretQueryNames`, or a credential-looking name (`isSecretName`).
 */
export function isSecretQueryName(name: string): boolean {
  const decoded = decodeQueryName(name).toLowerCase();
  return secretQueryNames.includes(decoded) || isSecretName(decoded);
}

/** A query parameter's name as meant: `+` is a space, percent escapes decoded where they decode. */
export function decodeQueryName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

const builtinSecretHeaders: ReadonlySet<string> = new Set(secretHeaderNames);

/**
 * The credential values an agent sent: every credential header (built-in, and `extraHeaders`
 * from `redact.headers`; a set is taken as lower-case already, like `Redactor.secretHeaders`),
 * each cookie's value, and credential query parameters. Redacted wherever they appear, and
 * checked against what is stored.
 */
export function credentialValues(
  headers: HeaderMap,
  path: string,
  extraHeaders: readonly string[] | ReadonlySet<string> = [],
): string[] {
  const values: string[] = [];
  const names =
    extraHeaders instanceof Set
      ? extraHeaders
      : new Set([...builtinSecretHeaders, ...[...extraHeaders].map((name) => name.toLowerCase())]);
  for (const [header, value] of Object.entries(headers)) {
    const name = header.toLowerCase();
    if (!(names.has(name) || builtinSecretHeaders.has(name)) || value === undefined) continue;
    for (const item of typeof value === 'string' ? [value] : value) {
      if (name === 'cookie' || name === 'set-cookie') values.push(...cookieValues(item));
      else values.push(item.replace(/^(Bearer|Basic)\s+/i, '').trim());
    }
  }
  const queryAt = path.indexOf('?');
  if (queryAt !== -1) {
    for (const [name, value] of new URLSearchParams(path.slice(queryAt + 1)))
      if (isSecretQueryName(name)) values.push(value);
  }
  return values.filter((value) => value.length > 0);
}

/** The values of a `Cookie` (or `Set-Cookie`) header, percent-decoded where they decode. */
function cookieValues(header: string): string[] {
  return header.split(/[;,]/).flatMap((pair) => {
    const at = pair.indexOf('=');
    if (at === -1) return [];
    const value = pair
      .slice(at + 1)
      .trim()
      .replace(/^"|"$/g, '');
    try {
      const decoded = decodeURIComponent(value);
      return decoded === value ? [value] : [value, decoded];
    } catch {
      return [value];
    }
  });
}
