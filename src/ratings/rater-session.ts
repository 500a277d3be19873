import type { Rating, RatingValue } from './rating.js';

// eslint-disable-next-line no-control-regex -- control characters are exactly what a typed note drops
const controlCharacters = /[\u0000-\u001f\u007f]/g;

/** Where a rating session stands: pure state, advanced one key at a time by `pressKey`. */
export interface RaterState {
  readonly runs: readonly string[];
  /** The run being shown. */
  readonly position: number;
  /** Ratings given so far in this set, by run (earlier sessions included). */
  readonly ratings: ReadonlyMap<string, Rating>;
  /** Typing a note: the text so far; undefined when not typing. */
  readonly typing: string | undefined;
  /** The note the next pass/fail on this run carries. */
  readonly note: string | undefined;
  readonly done: boolean;
}

/** What the shell must do after a key: store a rating, or nothing. */
export type RaterEffect =
  { readonly kind: 'rate'; readonly rating: Rating } | { readonly kind: 'none' };

/** Starts at the first run not yet rated: a session resumes where the last one stopped. */
export function startRater(
  runs: readonly string[],
  ratings: ReadonlyMap<string, Rating>,
): RaterState {
  const first = runs.findIndex((run) => !ratings.has(run));
  return {
    runs,
    position: first === -1 ? runs.length : first,
    ratings,
    typing: undefined,
    note: undefined,
    done: first === -1,
  };
}

/**
 * One key press. `p` pass, `f` fail, `s` skip, `n` note (type, Enter to keep, Esc to drop),
 * `b` back, `q` quit. Pass and fail move on to the next unrated run.
 */
export function pressKey(
  state: RaterState,
  key: string,
  context: { readonly now: () => string; readonly rater?: string },
): { state: RaterState; effect: RaterEffect } {
  const none = { kind: 'none' } as const;
  if (state.typing !== undefined) {
    if (key === '\r' || key === '\n')
      return {
        state: { ...state, typing: undefined, note: state.typing.trim() || undefined },
        effect: none,
      };
    if (key === '\u001b') return { state: { ...state, typing: undefined }, effect: none };
    if (key === '\u007f' || key === '\b')
      return { state: { ...state, typing: state.typing.slice(0, -1) }, effect: none };
    if (key === '\u0003') return { state: { ...state, done: true }, effect: none };
    // A paste arrives as one chunk: keep its printable characters.
    return {
      state: { ...state, typing: state.typing + key.replace(controlCharacters, '') },
      effect: none,
    };
  }
  const run = state.runs[state.position];
  switch (key) {
    case 'p':
    case 'f': {
      if (run === undefined) return { state, effect: none };
      const value: RatingValue = key === 'p' ? 'pass' : 'fail';
      const note = state.note ?? state.ratings.get(run)?.note;
      const rating: Rating = {
        run,
        rating: value,
        ...(note !== undefined ? { note } : {}),
        ...(context.rater !== undefined ? { rater: context.rater } : {}),
        at: context.now(),
      };
      const ratings = new Map(state.ratings).set(run, rating);
      return {
        state: advance({ ...state, ratings, note: undefined }),
        effect: { kind: 'rate', rating },
      };
    }
    case 's':
      return { state: advance({ ...state, note: undefined }), effect: none };
    case 'b':
      return {
        state: {
          ...state,
          position: Math.max(0, state.position - 1),
          note: undefined,
          done: false,
        },
        effect: none,
      };
    case 'n':
      return run === undefined
        ? { state, effect: none }
        : { state: { ...state, typing: '' }, effect: none };
    case 'q':
    case '\u0003':
      return { state: { ...state, done: true }, effect: none };
    default:
      return { state, effect: none };
  }
}

/** Rated / total and the pass share, for the status line. */
export function progressOf(state: RaterState): {
  readonly rated: number;
  readonly total: number;
  readonly passShare: number;
} {
  const rated = state.runs.filter((run) => state.ratings.has(run));
  const passed = rated.filter((run) => state.ratings.get(run)?.rating === 'pass').length;
  return {
    rated: rated.length,
    total: state.runs.length,
    passShare: rated.length === 0 ? 0 : passed / rated.length,
  };
}

/**
 * The next unrated run after this one; done when there is none. Skipped runs are not come back
 * to in this session (the next session starts at the first of them).
 */
function advance(state: RaterState): RaterState {
  for (let position = state.position + 1; position < state.runs.length; position += 1) {
    const run = state.runs[position];
    if (run !== undefined && !state.ratings.has(run)) return { ...state, position };
  }
  return { ...state, position: state.runs.length, done: true };
}

/**
 * The keys in one read from a raw terminal. A read can hold several keys — typed ahead, pasted,
 * or a note's text with its Enter when the machine is busy — so each character is a key of its
 * own; only an escape sequence (an arrow key, `\u001b[A`) stays one key.
 */
export function keysOf(chunk: string): string[] {
  if (chunk.startsWith('\u001b') && chunk.length > 1) return [chunk];
  // eslint-disable-next-line @typescript-eslint/no-misused-spread -- one key per code point is the intent (a pasted emoji is one key)
  return [...chunk];
}
