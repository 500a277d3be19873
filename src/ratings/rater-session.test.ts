import { describe, expect, it } from 'vitest';
import type { Rating } from './rating.js';
import { keysOf, pressKey, progressOf, startRater, type RaterState } from './rater-session.js';

const context = { now: () => '2026-12-01T08:00:00.000Z', rater: 'ana' };
const runs = ['a.sqlite#1', 'a.sqlite#2', 'a.sqlite#3'];

function press(
  state: RaterState,
  keys: readonly string[],
): { state: RaterState; stored: Rating[] } {
  const stored: Rating[] = [];
  for (const key of keys) {
    const next = pressKey(state, key, context);
    if (next.effect.kind === 'rate') stored.push(next.effect.rating);
    state = next.state;
  }
  return { state, stored };
}

describe('rater session', () => {
  it('resumes at the first run not yet rated', () => {
    const earlier = new Map([
      ['a.sqlite#1', { run: 'a.sqlite#1', rating: 'pass', at: 'x' } as const],
    ]);
    expect(startRater(runs, earlier).position).toBe(1);
    expect(
      startRater(runs, new Map(runs.map((run) => [run, { run, rating: 'fail', at: 'x' } as const])))
        .done,
    ).toBe(true);
  });

  it('stores each rating as it is given, with the note typed before it', () => {
    const { state, stored } = press(startRater(runs, new Map()), [
      'p',
      'n',
      'w',
      'h',
      'y',
      '\u007f',
      '\r',
      'f',
      's',
    ]);
    expect(stored).toEqual([
      { run: 'a.sqlite#1', rating: 'pass', rater: 'ana', at: context.now() },
      { run: 'a.sqlite#2', rating: 'fail', note: 'wh', rater: 'ana', at: context.now() },
    ]);
    expect(state.done).toBe(true);
    expect(progressOf(state)).toEqual({ rated: 2, total: 3, passShare: 0.5 });
  });

  it('goes back to re-rate, keeping the earlier note', () => {
    const first = press(startRater(runs, new Map()), ['n', 'o', 'k', '\r', 'p', 'b']);
    expect(first.state.position).toBe(0);
    const again = press(first.state, ['f']);
    expect(again.stored).toEqual([
      { run: 'a.sqlite#1', rating: 'fail', note: 'ok', rater: 'ana', at: context.now() },
    ]);
    expect(again.state.position).toBe(1);
  });

  it('quits without rating, and Esc drops a note being typed', () => {
    const { state, stored } = press(startRater(runs, new Map()), ['n', 'x', '\u001b', 'q']);
    expect(stored).toEqual([]);
    expect(state.note).toBeUndefined();
    expect(state.done).toBe(true);
  });
});

describe('keysOf', () => {
  it("keeps a note's Enter when the text and the Enter arrive in one read (the busy-machine race the tmux test hit)", () => {
    const typed = press(startRater(runs, new Map()), ['n', ...keysOf('memo lower-cased\r'), 'f']);
    expect(typed.stored).toEqual([
      {
        run: 'a.sqlite#1',
        rating: 'fail',
        note: 'memo lower-cased',
        rater: 'ana',
        at: '2026-12-01T08:00:00.000Z',
      },
    ]);
  });

  it('keeps an escape sequence whole and splits keys typed ahead', () => {
    expect(keysOf('\u001b[A')).toEqual(['\u001b[A']);
    expect(keysOf('\u001b')).toEqual(['\u001b']);
    expect(keysOf('pf')).toEqual(['p', 'f']);
  });
});
