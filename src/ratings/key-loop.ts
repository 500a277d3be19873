import { keysOf } from './rater-session.js';

/** What a terminal key loop does with each key, and how it shows where it stands. */
export interface KeyLoopHandlers {
  /** One key press; true when the loop is done. May be slow (an editor ran): keys wait their turn. */
  readonly key: (key: string) => boolean | Promise<boolean>;
  /** Redraws the screen after the keys of a read were handled. */
  readonly draw: () => void;
}

/**
 * Reads single keys from a terminal in raw mode until a handler says it is done: the one loop
 * behind `calltape rate` and `calltape review`. Keys are handled one at a time in the order
 * typed, so a decision is written before the next key is looked at; the terminal is given back
 * (raw mode off, input paused) however the loop ends.
 */
export async function runKeyLoop(
  input: NodeJS.ReadStream,
  handlers: KeyLoopHandlers,
): Promise<void> {
  input.setRawMode(true);
  input.setEncoding('utf8');
  input.resume();
  handlers.draw();
  let queue = Promise.resolve(false);
  try {
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: string): void => {
        queue = queue.then(async (done) => {
          if (done) return true;
          for (const key of keysOf(chunk)) {
            if (await handlers.key(key)) {
              input.off('data', onData);
              resolve();
              return true;
            }
          }
          handlers.draw();
          return false;
        });
        queue.catch((error: unknown) => {
          input.off('data', onData);
          reject(error as Error);
        });
      };
      input.on('data', onData);
    });
  } finally {
    input.setRawMode(false);
    input.pause();
  }
}

/**
 * Gives the terminal to something else for a while (an editor a key opened): cooked mode, input
 * paused so no key meant for it is read here, and raw mode back afterwards.
 */
export function withTerminalReleased<T>(input: NodeJS.ReadStream, run: () => T): T {
  input.setRawMode(false);
  input.pause();
  try {
    return run();
  } finally {
    input.setRawMode(true);
    input.resume();
  }
}
