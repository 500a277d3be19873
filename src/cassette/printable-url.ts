import { isSecretQueryName } from './credential-values.js';

/** What stands for masked user-info or a masked query value. */
const mask = 'REDACTED';

/**
 * A URL safe to print in a banner, a log line, an error or a report: its user-info
 * (`user:password@`) and the values of credential-looking query parameters (`?key=`,
 * `?access_token=`, `?code=`, `?auth=`, any name ending in token, secret, password…) are
 * masked; everything else is kept as given. A text that is not a URL is still cut at `//…@`,
 * so a malformed URL cannot print its password either.
 */
export function printableUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return maskQuery(url.replace(/\/\/[^/?#@\s]*@/g, `//${mask}@`));
  }
  if (parsed.username === '' && parsed.password === '' && !parsed.search) return url;
  if (parsed.username !== '' || parsed.password !== '') {
    parsed.username = mask;
    parsed.password = '';
  }
  const search = maskQuery(parsed.search);
  // Assigning `search` re-encodes it; the masked text is spliced in as it stands instead.
  parsed.search = '';
  const hashAt = parsed.href.indexOf('#');
  return hashAt === -1
    ? `${parsed.href}${search}`
    : `${parsed.href.slice(0, hashAt)}${search}${parsed.href.slice(hashAt)}`;
}

/**
 * A text (an error message from a library, say) with every URL in it made printable: an HTTP
 * client's message may quote the URL it failed on, user-info and all.
 */
export function printableText(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, printableUrl);
}

/** Masks the values of credential query parameters in the query part of a text (from its first `?`). */
function maskQuery(text: string): string {
  const queryAt = text.indexOf('?');
  if (queryAt === -1) return text;
  const hashAt = text.indexOf('#', queryAt);
  const end = hashAt === -1 ? text.length : hashAt;
  const query = text
    .slice(queryAt + 1, end)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const name = pair.slice(0, equals);
      return isSecretQueryName(name) ? `${name}=${mask}` : pair;
    })
    .join('&');
  return `${text.slice(0, queryAt + 1)}${query}${text.slice(end)}`;
}
