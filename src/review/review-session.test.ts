import { describe, expect, it } from 'vitest';
import {
  currentDraft,
  decided,
  pressReviewKey,
  reviewProgress,
  startReview,
} from './review-session.js';

describe('the review session', () => {
  it('hands decisions to the shell and counts one only once it is written', () => {
    const pending = ['a', 'b', 'c'];
    let state = startReview(pending);
    const accept = pressReviewKey(state, 'a', currentDraft(state, pending));
    expect(accept.effect).toEqual({ kind: 'accept', id: 'a' });
    // The write was refused: nothing is counted and the draft stays on screen.
    state = decided(accept.state, accept.effect, { message: 'no', refused: true }, pending);
    expect([state.accepted, currentDraft(state, pending), state.message]).toEqual([0, 'a', 'no']);
    state = decided(accept.state, accept.effect, { message: 'accepted a' }, ['b', 'c']);
    expect([state.accepted, currentDraft(state, ['b', 'c'])]).toEqual([1, 'b']);
    expect(reviewProgress(state)).toBe('[2/3] 1 accepted · 0 rejected · 0 skipped');
  });

  it('passes over a skipped draft in this review only, and is done when every draft is decided or skipped', () => {
    const pending = ['a', 'b'];
    let state = startReview(pending);
    state = pressReviewKey(state, 's', 'a').state;
    expect(currentDraft(state, pending)).toBe('b');
    const reject = pressReviewKey(state, 'r', 'b');
    expect(reject.effect).toEqual({ kind: 'reject', id: 'b' });
    state = decided(reject.state, reject.effect, { message: 'rejected b' }, ['a']);
    expect(state.done).toBe(true);
    // A new review starts with what is still pending, the skipped draft first.
    expect(currentDraft(startReview(['a']), ['a'])).toBe('a');
  });

  it('quits on q or Ctrl-C, and ignores other keys', () => {
    const state = startReview(['a']);
    expect(pressReviewKey(state, 'x', 'a')).toEqual({ state, effect: { kind: 'none' } });
    expect(pressReviewKey(state, 'q', 'a').state.done).toBe(true);
    expect(pressReviewKey(state, '\u0003', 'a').state.done).toBe(true);
    expect(pressReviewKey(state, 'e', 'a').effect).toEqual({ kind: 'edit', id: 'a' });
    expect(pressReviewKey(state, 'f', 'a').effect).toEqual({ kind: 'flip', id: 'a' });
  });
});
