import { JSONParser } from '@streamparser/json';
import { decodeSse } from '../../sse/decode-sse.js';
import { decodeUtf8 } from '../../sse/decode-utf8.js';
import type { JsonValue } from '../../trace/trace.js';
import { asObject, parseJson, type JsonObject } from '../json-access.js';

/**
 * The three forms a Gemini answer comes in: `generateContent`'s JSON object;
 * `streamGenerateContent?alt=sse`, one chunk per `data:` event (no `[DONE]`); and
 * `streamGenerateContent` without `alt`, one JSON array whose elements are the chunks.
 */
export type GeminiForm = 'json' | 'sse' | 'array';

/** An answer read into its chunks (a whole answer is its one chunk). */
export interface GeminiBody {
  readonly form: GeminiForm;
  readonly chunks: readonly JsonObject[];
  /** False when the body ended before its form did (an array without its `]`). */
  readonly closed: boolean;
  /** Why the body could not be read to its end (not JSON where JSON was due). */
  readonly invalid: string | undefined;
}

/**
 * The form of a body, by its first character: a JSON array is the array stream, an object the
 * whole answer, an SSE field the event stream. Bodies kept as text (the tool loop's, a
 * cassette's) carry no content type, so the text decides; the content type only breaks a tie.
 */
export function geminiForm(contentType: string | undefined, text: string): GeminiForm {
  const first = /\S/.exec(text)?.[0];
  if (first === '[') return 'array';
  if (first === '{') return 'json';
  if (contentType?.includes('text/event-stream') || /^\s*(data|event|id|retry)?:/.test(text))
    return 'sse';
  return 'json';
}

/** Reads a body whose chunks may be split anywhere (inside a character, a line or a JSON value). */
export function readGeminiBody(
  body: readonly Uint8Array[],
  contentType: string | undefined,
): GeminiBody {
  const text = decodeUtf8(body);
  const form = geminiForm(contentType, text);
  if (form === 'sse') {
    const chunks = decodeSse(body).flatMap((event) => {
      const parsed = parseJson(event.data);
      const chunk = parsed.ok ? asObject(parsed.value) : undefined;
      return chunk ? [chunk] : [];
    });
    return { form, chunks, closed: true, invalid: undefined };
  }
  if (form === 'array') return readArray(text);
  const parsed = parseJson(text);
  const whole = parsed.ok ? asObject(parsed.value) : undefined;
  return {
    form,
    chunks: whole ? [whole] : [],
    closed: true,
    invalid: parsed.ok ? (whole ? undefined : 'the answer is not a JSON object') : parsed.error,
  };
}

/** Reads a body already decoded to text. */
export function readGeminiText(text: string): GeminiBody {
  return readGeminiBody([new TextEncoder().encode(text)], undefined);
}

/**
 * The array stream's complete elements, in order, however far the array got: an incremental
 * parser (`@streamparser/json`) hands each element over as soon as it closes, so a body cut in the
 * middle still yields the chunks before the cut.
 */
function readArray(text: string): GeminiBody {
  const chunks: JsonObject[] = [];
  let invalid: string | undefined;
  const parser = new JSONParser({ paths: ['$.*'], keepStack: false });
  parser.onValue = ({ value }) => {
    const chunk = asObject(value as JsonValue);
    if (chunk) chunks.push(chunk);
  };
  parser.onError = (error) => {
    invalid ??= error.message;
  };
  parser.write(text);
  const closed = parser.isEnded && invalid === undefined;
  return { form: 'array', chunks, closed, invalid };
}
