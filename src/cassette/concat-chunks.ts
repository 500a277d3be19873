/** The body the chunks make up: the one chunk itself, a view over adjacent ones, or a copy. */
export function concatChunks(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const adjacent = adjacentView(chunks);
  if (adjacent) return adjacent;
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

/**
 * One view of chunks that lie one after another in the same buffer, as a batch packed for the
 * store worker holds them (`packRounds`): their concatenation without copying it.
 */
function adjacentView(chunks: readonly Uint8Array[]): Uint8Array | undefined {
  const first = chunks[0];
  if (!first) return undefined;
  let end = first.byteOffset + first.byteLength;
  for (let index = 1; index < chunks.length; index++) {
    const chunk = chunks[index] as Uint8Array;
    if (chunk.buffer !== first.buffer || chunk.byteOffset !== end) return undefined;
    end += chunk.byteLength;
  }
  return new Uint8Array(first.buffer, first.byteOffset, end - first.byteOffset);
}
