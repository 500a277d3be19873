/**
 * Ratings: a person's pass/fail verdict on one recorded run, the ground truth judges are
 * compared against. Pure types and the run-reference grammar.
 */

/** A person's verdict on a run. */
export type RatingValue = 'pass' | 'fail';

/** One rating in a set. */
export interface Rating {
  /** The run rated: `<cassette>#<session id>` or `run:<id>/<session>` (see `parseRunReference`). */
  readonly run: string;
  readonly rating: RatingValue;
  /** Why, in the rater's words (what a person re-reading a disagreement needs). */
  readonly note?: string;
  /** Who rated (free text: a name or a handle). */
  readonly rater?: string;
  /** When it was given, ISO 8601. */
  readonly at: string;
}

/** Where a run lives: a session of a cassette, or a case of a stored `calltape test` run. */
export type RunReference =
  | { readonly kind: 'session'; readonly cassette: string; readonly session: string }
  | { readonly kind: 'case'; readonly runId: number; readonly session: string };

/** The set ratings go to when none is named. */
export const defaultSet = 'golden';

/**
 * Parses a run reference. `run:<id>/<session>` names a case of a stored test run by its session
 * (`TC-001`, or `<configuration>/TC-001` in a suite with several run configurations); anything
 * else is `<cassette>#<session>`, split at the last `#` (session ids never hold one, paths may).
 * Undefined when the text is neither.
 */
export function parseRunReference(text: string): RunReference | undefined {
  const stored = /^run:(\d+)\/(.+)$/.exec(text);
  if (stored) return { kind: 'case', runId: Number(stored[1]), session: stored[2] ?? '' };
  if (text.startsWith('run:')) return undefined;
  const hash = text.lastIndexOf('#');
  if (hash <= 0 || hash === text.length - 1) return undefined;
  return { kind: 'session', cassette: text.slice(0, hash), session: text.slice(hash + 1) };
}

/** The reference's text form, the inverse of `parseRunReference`. */
export function formatRunReference(reference: RunReference): string {
  return reference.kind === 'case'
    ? `run:${reference.runId}/${reference.session}`
    : `${reference.cassette}#${reference.session}`;
}
