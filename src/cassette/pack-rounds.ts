import type { CapturedRound } from './captured-round.js';
import { roundBytes } from './round-size.js';

/** A batch of rounds whose bytes all live in `buffer`, ready to be posted with `buffer` transferred. */
export interface PackedRounds<T> {
  readonly items: T[];
  readonly buffer: ArrayBuffer;
}

/**
 * Copies every byte a batch of rounds holds (request bodies, agent views, response chunks) into
 * one fresh ArrayBuffer and re-points the rounds at views of it. Posted with that buffer in the
 * transfer list, the batch crosses to the store worker with one copy made here and none by the
 * structured clone, which otherwise copies the whole backing buffer of every chunk (a socket
 * read, or Node's shared 8 KB pool for a small Buffer) and allocates one per chunk on the other
 * side. The rounds given are left as they were; the views are only valid until the buffer is
 * transferred, so the packed items are for posting, never for keeping. An item that holds no
 * round (`roundOf` gives undefined: a verdict, an MCP exchange) is posted as it is, in its place.
 */
export function packRounds<T>(
  items: readonly T[],
  roundOf: (item: T) => CapturedRound | undefined,
  withRound: (item: T, round: CapturedRound) => T,
): PackedRounds<T> {
  let size = 0;
  for (const item of items) {
    const round = roundOf(item);
    if (round) size += roundBytes(round);
  }
  const buffer = new ArrayBuffer(size);
  const target = new Uint8Array(buffer);
  let offset = 0;
  const copy = (bytes: Uint8Array): Uint8Array => {
    target.set(bytes, offset);
    const view = target.subarray(offset, offset + bytes.length);
    offset += bytes.length;
    return view;
  };
  const packed = items.map((item) => {
    const round = roundOf(item);
    if (!round) return item;
    const { request, upstream, agentView } = round;
    return withRound(item, {
      ...round,
      request: { ...request, body: copy(request.body) },
      upstream: upstream && { ...upstream, chunks: upstream.chunks.map(copy) },
      ...(agentView
        ? {
            agentView: {
              ...(agentView.request ? { request: copy(agentView.request) } : {}),
              ...(agentView.response ? { response: copy(agentView.response) } : {}),
            },
          }
        : {}),
    });
  });
  return { items: packed, buffer };
}
