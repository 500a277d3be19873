import slugify from '@sindresorhus/slugify';

/** Longest name a prompt's slug gives, before any `-2` suffix: enough words to recognise a case by. */
export const maxCaseNameLength = 48;

/**
 * The test id of a case promoted from a session: its first prompt as a readable slug, cut at a
 * word boundary to `maxCaseNameLength`, or the session id when the prompt gives no letters.
 * Taken names get `-2`, `-3`… so the name is unique within the suite; it depends only on the
 * prompt, the session and the names already taken, so promoting the same session into the same
 * suite gives the same name.
 */
export function caseName(
  prompt: string | undefined,
  sessionId: string,
  taken: ReadonlySet<string>,
): string {
  const slug = bounded(slugify(prompt ?? ''));
  const base = /[a-z]/.test(slug) ? slug : fromSessionId(sessionId);
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base}-${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

function bounded(slug: string): string {
  if (slug.length <= maxCaseNameLength) return slug;
  const cut = slug.slice(0, maxCaseNameLength + 1);
  const boundary = cut.lastIndexOf('-');
  // One long word: cut inside it rather than lose the name.
  return boundary > 0 ? cut.slice(0, boundary) : slug.slice(0, maxCaseNameLength);
}

/** The session id as a name (it also names the case's mock file): path separators and dots become dashes. */
function fromSessionId(sessionId: string): string {
  const id = sessionId.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
  return `session-${id}`.slice(0, 80).replace(/-+$/, '');
}
