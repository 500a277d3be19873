import type { ServerResponse } from 'node:http';
import { decodeContent } from '../cassette/decode-content.js';
import { headerText } from '../cassette/header-text.js';
import type { Recording } from '../cassette/sqlite/cassette-reader.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';
import type { WireRoute } from '../providers/wire-route.js';
import { parseBody } from '../cassette/match-key.js';

/** Recorded headers that describe the original connection, not the response; never replayed. */
const connectionHeaders = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
]);

/** How replayed chunks are paced: `none`, `exact` or `scaled:F`, as a factor on recorded times (0 = no waiting). */
export function timingFactor(timing: string): number {
  if (timing === 'exact') return 1;
  if (timing.startsWith('scaled:')) return Number(timing.slice('scaled:'.length));
  return 0;
}

/**
 * Re-emits a recorded response: status, headers and the body in its recorded chunks, byte for
 * byte, optionally at the recorded pace; a stream that was cut when recorded is cut again.
 */
export function replayRecording(
  recording: Recording,
  response: ServerResponse,
  factor: number,
): void {
  const body = recording.body ?? Buffer.alloc(0);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(recording.headers ?? {}))
    if (!connectionHeaders.has(name)) headers[name] = value;
  const streaming = String(headers['content-type'] ?? '').includes('text/event-stream');
  if (!streaming) headers['content-length'] = String(body.length);
  headers['x-calltape-replay'] = recording.id;
  response.writeHead(recording.httpStatus, headers);
  // Paced, a stream's headers go out before its first wait. Unpaced, every piece is written in
  // this turn and Node sends the headers with them: flushing them first cost a write to the
  // socket of its own per streamed call (issue 37, profile of replay per call).
  if (streaming && factor > 0) response.flushHeaders();

  const pieces: { bytes: Buffer; atMs: number }[] = [];
  let start = 0;
  for (const [end, atMs] of recording.chunks) {
    if (end > start) pieces.push({ bytes: body.subarray(start, end), atMs });
    start = Math.max(start, end);
  }
  if (start < body.length)
    pieces.push({ bytes: body.subarray(start), atMs: pieces.at(-1)?.atMs ?? 0 });
  const cut = recording.ending === 'upstream-failed' || recording.ending === 'client-aborted';
  const began = performance.now();

  const writeFrom = (index: number): void => {
    for (let i = index; i < pieces.length; i++) {
      if (response.destroyed) return;
      const piece = pieces[i] as { bytes: Buffer; atMs: number };
      const wait = piece.atMs * factor - (performance.now() - began);
      if (factor > 0 && wait > 1) {
        setTimeout(() => writeFrom(i), wait);
        return;
      }
      if (!response.write(piece.bytes)) {
        response.once('drain', () => writeFrom(i + 1));
        return;
      }
    }
    if (cut) response.destroy();
    else response.end();
  };
  writeFrom(0);
}

/**
 * The recording in the form the request asks for (`match.streamAgnostic`): a JSON answer
 * re-emitted as a stream, or a finished stream as JSON. Unchanged when the forms agree, and for
 * answers that are not a finished success (errors and cut streams replay as recorded).
 */
export function inRequestedForm(
  recording: Recording,
  adapter: ProviderAdapter,
  requestText: string,
  route?: WireRoute,
): Recording {
  const wanted = adapter.requestedForm(parseBody(requestText), route);
  const recordedStream =
    headerText(recording.headers, 'content-type')?.includes('text/event-stream') ?? false;
  if (recordedStream === wanted.stream || recording.status !== 'complete' || !recording.body)
    return recording;
  const decoded = decodeContent(recording.body, headerText(recording.headers, 'content-encoding'));
  const converted = adapter.convertBody(new TextDecoder().decode(decoded.bytes), wanted, route);
  if (!converted || decoded.error) return recording;
  const body = Buffer.from(converted.body, 'utf8');
  const {
    'content-encoding': _encoding,
    'content-type': _type,
    ...headers
  } = recording.headers ?? {};
  return {
    ...recording,
    headers: { ...headers, 'content-type': converted.contentType },
    body,
    chunks: [[body.length, recording.chunks.at(-1)?.[1] ?? 0]],
  };
}
