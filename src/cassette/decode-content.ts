import { brotliDecompressSync, constants, gunzipSync, inflateSync } from 'node:zlib';

/** What decoding a body gave: the bytes, or why there are none (or why they stop short). */
export interface DecodedContent {
  readonly bytes: Uint8Array;
  readonly error: string | undefined;
  /** Set when the body decodes to more than the limit: nothing is kept, and this says why. */
  readonly truncated?: string | undefined;
}

/**
 * Decompresses a copy of a body for parsing; the agent always receives the original bytes.
 * Truncated compressed streams yield what they hold so far (sync flush), like the stream did.
 * A body that would decode to more than `maxBytes` (a decompression bomb) yields nothing.
 */
export function decodeContent(
  body: Uint8Array,
  encoding: string | undefined,
  maxBytes = Number.MAX_SAFE_INTEGER,
): DecodedContent {
  const name = encoding?.trim().toLowerCase();
  if (!name || name === 'identity' || body.length === 0) return { bytes: body, error: undefined };
  const maxOutputLength = Math.min(maxBytes, 2 ** 32);
  try {
    if (name === 'gzip' || name === 'x-gzip')
      return {
        bytes: gunzipSync(body, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength }),
        error: undefined,
      };
    if (name === 'deflate')
      return {
        bytes: inflateSync(body, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength }),
        error: undefined,
      };
    if (name === 'br')
      return {
        bytes: brotliDecompressSync(body, {
          finishFlush: constants.BROTLI_OPERATION_FLUSH,
          maxOutputLength,
        }),
        error: undefined,
      };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      return {
        bytes: new Uint8Array(0),
        error: undefined,
        truncated: `capture truncated: the ${name} body decodes to more than ${maxBytes} bytes (limits.maxDecodedBytes)`,
      };
    }
    return {
      bytes: new Uint8Array(0),
      error: `cannot decode ${name} body: ${(error as Error).message}`,
    };
  }
  return { bytes: new Uint8Array(0), error: `unsupported content-encoding ${name}` };
}
