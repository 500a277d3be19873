import { decodeUtf8 } from '../../sse/decode-utf8.js';
import type { JsonValue } from '../../trace/trace.js';
import { parseJson } from '../json-access.js';

/** A newline-delimited JSON body, read. */
export interface NdjsonLines {
  /** Each complete line's JSON value, in order; blank lines skipped. */
  readonly values: readonly JsonValue[];
  /** The first line that is not JSON (cut to 200 characters); undefined when every line parsed. */
  readonly invalid: string | undefined;
  /** The body ends inside a line (no newline after an unparseable last line): the stream was cut. */
  readonly unterminated: boolean;
}

/**
 * Reads an NDJSON body (`application/x-ndjson`, one JSON object a line, as Ollama streams) from
 * the chunks it arrived in. The chunks are joined before decoding, so any byte split — inside a
 * line or a multi-byte character — reads the same.
 */
export function decodeNdjson(chunks: readonly Uint8Array[]): NdjsonLines {
  const lines = decodeUtf8(chunks).split('\n');
  const values: JsonValue[] = [];
  let invalid: string | undefined;
  let unterminated = false;
  lines.forEach((rawLine, index) => {
    const line = rawLine.trim();
    if (line === '') return;
    const parsed = parseJson(line);
    if (parsed.ok) values.push(parsed.value);
    else if (index === lines.length - 1) unterminated = true;
    else invalid ??= line.slice(0, 200);
  });
  return { values, invalid, unterminated };
}
