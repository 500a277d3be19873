import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const adminCookie = 'calltape_admin';

/** Whether a listen address only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    bare === 'localhost' ||
    bare === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare) ||
    /^::ffff:127\./.test(bare)
  );
}

/**
 * The admin token a request carries: `Authorization: Bearer …` (Prometheus, curl), the
 * dashboard's cookie, or `?token=` (how a browser opens the dashboard and its WebSocket).
 */
export function presentedToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (header?.toLowerCase().startsWith('bearer ')) return header.slice(7).trim();
  const cookie = request.headers.cookie
    ?.split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${adminCookie}=`));
  // A malformed escape in a cookie is the sender's problem: it stays as sent and simply fails to match.
  if (cookie) return decodeOrKeep(cookie.slice(adminCookie.length + 1));
  return new URL(request.url ?? '/', 'http://calltape').searchParams.get('token') ?? undefined;
}

function decodeOrKeep(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Compares in constant time (hashes first, so lengths leak nothing either). */
export function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
