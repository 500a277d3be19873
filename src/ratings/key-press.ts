import { CalltapeError } from '../errors.js';
import { textField } from '../request-fields.js';
import { defaultSet } from './rating.js';

/** The keys the app's rater posts: the rater session's p (pass), f (fail), s (skip), b (back). */
export type PostedKey = 'p' | 'f' | 's' | 'b';

/**
 * A key pressed in the app's rater, as it is posted: the runs being rated, the set, the run the
 * key was pressed on (null past the last), and the note typed for it. The note key (`n`) never
 * reaches the server: typing a note is the page's business until a pass or fail carries it.
 */
export interface KeyPress {
  /** A cassette, or `run:<id>`. */
  readonly runs: string;
  readonly set: string;
  readonly run: string | null;
  readonly key: PostedKey;
  readonly note?: string;
  readonly rater?: string;
}

/**
 * Reads a posted key press from a parsed JSON body; every field is read as an own property and
 * bounded, and anything else is CONFIG_INVALID naming the field (the API answers 400 with it).
 */
export function parseKeyPress(record: Readonly<Record<string, unknown>>): KeyPress {
  const text = (name: string, limit: number): string | undefined =>
    textField(record, name, limit, 'rating request');
  const key = text('key', 1);
  if (key !== 'p' && key !== 'f' && key !== 's' && key !== 'b')
    throw new CalltapeError(
      'CONFIG_INVALID',
      'the rating request\'s "key" must be p (pass), f (fail), s (skip) or b (back)',
    );
  const runs = text('runs', 4096);
  if (!runs)
    throw new CalltapeError(
      'CONFIG_INVALID',
      'the rating request names no runs ("runs": a cassette or run:<id>)',
    );
  const note = text('note', 10_000);
  const rater = text('rater', 200);
  return {
    runs,
    set: text('set', 200) || defaultSet,
    run: text('run', 4096) ?? null,
    key,
    ...(note !== undefined ? { note } : {}),
    ...(rater ? { rater } : {}),
  };
}
