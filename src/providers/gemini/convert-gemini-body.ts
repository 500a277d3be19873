import type { JsonValue } from '../../trace/trace.js';
import { asArray, asObject, type JsonObject } from '../json-access.js';
import { mergeGeminiChunks, type MergedResponse } from './merge-gemini-chunks.js';
import { readGeminiText, type GeminiForm } from './read-gemini-body.js';

/** The content type each form is served with. */
export const geminiContentType: Readonly<Record<GeminiForm, string>> = {
  json: 'application/json; charset=UTF-8',
  sse: 'text/event-stream',
  array: 'application/json; charset=UTF-8',
};

/**
 * A finished answer, in any form, as the whole answer it amounts to; undefined when it did not
 * finish (a cut stream, an error, a function call never ended) or cannot be read.
 */
export function finishedGeminiAnswer(text: string): MergedResponse | undefined {
  const body = readGeminiText(text);
  if (body.invalid !== undefined || !body.closed || body.chunks.length === 0) return undefined;
  const merged = mergeGeminiChunks(body.chunks);
  const finished = asArray(merged.response['candidates']).some(
    (candidate) => asObject(candidate)?.['finishReason'] !== undefined,
  );
  const open = [...merged.unfinishedCalls.values()].some((positions) => positions.size > 0);
  return merged.error === undefined && finished && !open ? merged : undefined;
}

/** A finished answer re-expressed in `form`; its bytes unchanged when it is already in that form. */
export function convertGeminiBody(text: string, form: GeminiForm): string | undefined {
  if (readGeminiText(text).form === form) return finishedGeminiAnswer(text) ? text : undefined;
  const merged = finishedGeminiAnswer(text);
  return merged === undefined ? undefined : writeGeminiAnswer(merged.response, form);
}

/**
 * A whole answer written in `form`. A stream carries one part per chunk, each candidate's own
 * fields (finishReason, groundingMetadata…) with its last part, and the usage with the last chunk;
 * every chunk names the model and the response, as Gemini's do.
 */
export function writeGeminiAnswer(response: JsonObject, form: GeminiForm): string {
  if (form === 'json') return JSON.stringify(response);
  const { candidates: _candidates, usageMetadata, ...named } = response;
  const chunks: JsonValue[] = [];
  for (const value of asArray(response['candidates'])) {
    const { content, ...fields } = asObject(value) ?? {};
    const parts = asArray(asObject(content)?.['parts']);
    const index = fields['index'] ?? 0;
    if (parts.length === 0)
      chunks.push({ ...named, candidates: [{ content: { parts: [], role: 'model' }, ...fields }] });
    parts.forEach((part, position) => {
      const last = position === parts.length - 1;
      chunks.push({
        ...named,
        candidates: [{ content: { parts: [part], role: 'model' }, ...(last ? fields : { index }) }],
      });
    });
  }
  if (chunks.length === 0) chunks.push({ ...named });
  if (usageMetadata !== undefined) {
    const final = asObject(chunks.at(-1)) ?? {};
    chunks[chunks.length - 1] = { ...final, usageMetadata };
  }
  const texts = chunks.map((chunk) => JSON.stringify(chunk));
  return form === 'sse'
    ? texts.map((chunk) => `data: ${chunk}\r\n\r\n`).join('')
    : `[${texts.join(',\r\n')}]`;
}
