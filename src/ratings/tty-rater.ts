import { pct } from '../report/pct.js';
import type { Rating } from './rating.js';
import type { RatingStore } from './rating-store.js';
import { runKeyLoop } from './key-loop.js';
import { pressKey, progressOf, startRater, type RaterState } from './rater-session.js';
import { renderRunView } from './render-run-view.js';
import type { RunView } from './run-view.js';
import { terminalSafe } from '../terminal-safe.js';

export interface TtyRaterOptions {
  readonly store: RatingStore;
  readonly set: string;
  readonly runs: readonly string[];
  /** Loads a run's view; a run that cannot be loaded is shown as its error and may be skipped. */
  readonly view: (run: string) => RunView;
  readonly rater?: string;
  readonly input: NodeJS.ReadStream;
  readonly output: NodeJS.WriteStream;
}

/**
 * The terminal rater: shows one run at a time and reads single keys (raw mode). Each pass/fail
 * is written to the store the moment the key is pressed, so quitting (or a killed terminal)
 * loses nothing already rated. Resolves with the ratings given in this session.
 */
export async function rateOnTerminal(options: TtyRaterOptions): Promise<Rating[]> {
  const existing = new Map(options.store.list(options.set).map((rating) => [rating.run, rating]));
  let state = startRater(options.runs, existing);
  const given: Rating[] = [];
  const { input, output } = options;
  const draw = (): void => {
    output.write(`\u001b[2J\u001b[H${terminalSafe(screen(state, options))}`);
  };
  if (state.done) {
    output.write(
      terminalSafe(`All ${options.runs.length} runs are rated in the set "${options.set}".\n`),
    );
    return given;
  }
  await runKeyLoop(input, {
    draw,
    key: (key) => {
      const next = pressKey(state, key, {
        now: () => new Date().toISOString(),
        ...(options.rater !== undefined ? { rater: options.rater } : {}),
      });
      if (next.effect.kind === 'rate') {
        options.store.put(options.set, next.effect.rating);
        given.push(next.effect.rating);
      }
      state = next.state;
      return state.done;
    },
  });
  const progress = progressOf(state);
  output.write(
    `\u001b[2J\u001b[H${terminalSafe(`${given.length} rating(s) stored in ${options.store.path} (set "${options.set}"): ${progress.rated}/${progress.total} rated, ${pct(progress.passShare)} pass.\n`)}`,
  );
  return given;
}

function screen(state: RaterState, options: TtyRaterOptions): string {
  const run = state.runs[state.position] ?? '';
  let body: string;
  try {
    body = renderRunView(options.view(run));
  } catch (error) {
    body = `── ${run}\n\n${(error as Error).message}\n(skip it with s)`;
  }
  const progress = progressOf(state);
  const current = state.ratings.get(run);
  const lines = [
    body,
    '',
    `[${state.position + 1}/${state.runs.length}] rated ${progress.rated}/${progress.total}, pass ${pct(progress.passShare)}${current ? ` · this run: ${current.rating}${current.note ? ` (${current.note})` : ''}` : ''}${state.note ? ` · note: ${state.note}` : ''}`,
    state.typing !== undefined
      ? `note (Enter keeps, Esc drops): ${state.typing}`
      : 'p pass · f fail · s skip · n note · b back · q quit',
  ];
  return `${lines.join('\n')}\n`;
}
