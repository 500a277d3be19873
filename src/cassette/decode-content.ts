import { brotliDecompressSync, constants, gunzipSync, inflateSync } from 'node:zlib';

/**
 * Decompresses a copy of a body for parsing; the agent always receives the original bytes.
 * Truncated compressed streams yield what they hold so far (sync flush), like the stream did.
 */
export function decodeContent(body: Uint8Array, encoding: string | undefined): { readonly bytes: Uint8Array; readonly error: string | undefined } {
  const name = encoding?.trim().toLowerCase();
  if (!name || name === 'identity' || body.length === 0) return { bytes: body, error: undefined };
  try {
    if (name === 'gzip' || name === 'x-gzip') return { bytes: gunzipSync(body, { finishFlush: constants.Z_SYNC_FLUSH }), error: undefined };
    if (name === 'deflate') return { bytes: inflateSync(body, { finishFlush: constants.Z_SYNC_FLUSH }), error: undefined };
    if (name === 'br') return { bytes: brotliDecompressSync(body, { finishFlush: constants.BROTLI_OPERATION_FLUSH }), error: undefined };
  } catch (error) {
    return { bytes: new Uint8Array(0), error: `cannot decode ${name} body: ${(error as Error).message}` };
  }
  return { bytes: new Uint8Array(0), error: `unsupported content-encoding ${name}` };
}
