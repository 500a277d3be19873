/** Where a terminal review stands: pure state, advanced one key at a time by `pressReviewKey`. */
export interface ReviewState {
  /** Drafts pending when the review started: the progress line counts against it. */
  readonly total: number;
  readonly accepted: number;
  readonly rejected: number;
  /** Skipped in this review: passed over now, pending still (the next review starts with them). */
  readonly skipped: ReadonlySet<string>;
  /** What the last key did or why it did nothing, for the status line. */
  readonly message: string | undefined;
  readonly done: boolean;
}

/** What the shell must do to the suite after a key. */
export type ReviewEffect =
  | { readonly kind: 'accept' | 'reject' | 'flip' | 'edit'; readonly id: string }
  | { readonly kind: 'none' };

/** Starts a review of the drafts now pending. */
export function startReview(pending: readonly string[]): ReviewState {
  return {
    total: pending.length,
    accepted: 0,
    rejected: 0,
    skipped: new Set(),
    message: undefined,
    done: pending.length === 0,
  };
}

/** The draft on screen: the first pending one not skipped in this review. */
export function currentDraft(state: ReviewState, pending: readonly string[]): string | undefined {
  return pending.find((id) => !state.skipped.has(id));
}

/**
 * One key. `a` accept, `r` reject, `f` flip positive/negative, `e` edit in $EDITOR, `s` skip,
 * `q` (or Ctrl-C) quit. Decisions come back as effects for the shell to write; `decided` counts
 * one once it is written, so a refused write never shows as done.
 */
export function pressReviewKey(
  state: ReviewState,
  key: string,
  current: string | undefined,
): { state: ReviewState; effect: ReviewEffect } {
  const none = { kind: 'none' } as const;
  const quiet = { ...state, message: undefined };
  if (key === 'q' || key === '\u0003') return { state: { ...quiet, done: true }, effect: none };
  if (current === undefined) return { state: { ...quiet, done: true }, effect: none };
  switch (key) {
    case 'a':
      return { state: quiet, effect: { kind: 'accept', id: current } };
    case 'r':
      return { state: quiet, effect: { kind: 'reject', id: current } };
    case 'f':
      return { state: quiet, effect: { kind: 'flip', id: current } };
    case 'e':
      return { state: quiet, effect: { kind: 'edit', id: current } };
    case 's':
      return {
        state: {
          ...quiet,
          skipped: new Set([...state.skipped, current]),
          message: `skipped ${current}`,
        },
        effect: none,
      };
    default:
      return { state, effect: none };
  }
}

/** The state once an effect was written (or refused, with why), and whether any draft is left. */
export function decided(
  state: ReviewState,
  effect: ReviewEffect,
  outcome: { readonly message: string; readonly refused?: boolean },
  pending: readonly string[],
): ReviewState {
  const counted =
    outcome.refused === true
      ? state
      : effect.kind === 'accept'
        ? { ...state, accepted: state.accepted + 1 }
        : effect.kind === 'reject'
          ? { ...state, rejected: state.rejected + 1 }
          : state;
  const next = { ...counted, message: outcome.message };
  return { ...next, done: currentDraft(next, pending) === undefined };
}

/** `[n/total] accepted · rejected · skipped`, for the status line. */
export function reviewProgress(state: ReviewState): string {
  const seen = state.accepted + state.rejected + state.skipped.size;
  return `[${Math.min(seen + 1, state.total)}/${state.total}] ${state.accepted} accepted · ${state.rejected} rejected · ${state.skipped.size} skipped`;
}
