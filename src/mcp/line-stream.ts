import type { Readable, Writable } from 'node:stream';
import { LineSplitter } from './line-splitter.js';

/**
 * Calls `onLine` for each line of `source` (bytes unchanged, newline included) and `onEnd` when
 * it ends. `complete` is false for pieces of an oversized line, which are passed on unparsed.
 * While a destination is full (`write` returned false) the source is paused until it drains,
 * so a slow reader bounds what the relay buffers.
 */
export function readLines(
  source: Readable,
  onLine: (bytes: Buffer, complete: boolean) => void,
  onEnd: () => void,
): void {
  const splitter = new LineSplitter();
  source.on('data', (chunk: Buffer) => {
    for (const line of splitter.push(chunk)) onLine(line.bytes, line.complete);
  });
  source.once('end', () => {
    const rest = splitter.end();
    if (rest) onLine(rest, true);
    onEnd();
  });
}

/** A writer that pauses `source` while `destination` is full. */
export function writerTo(
  destination: Writable,
  source: Readable,
): (bytes: Buffer | string) => void {
  return (bytes) => {
    if (destination.destroyed || destination.writableEnded) return;
    if (!destination.write(bytes) && !source.isPaused()) {
      source.pause();
      destination.once('drain', () => source.resume());
    }
  };
}
