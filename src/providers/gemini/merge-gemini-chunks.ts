import type { JsonValue } from '../../trace/trace.js';
import { asArray, asNumber, asObject, asString, type JsonObject } from '../json-access.js';
import { PartialArguments } from './partial-arguments.js';

/** A function call streamed piece by piece that has not ended yet. */
interface OpenCall {
  readonly position: number;
  readonly partialArgs: PartialArguments;
}

interface CandidateState {
  readonly parts: JsonObject[];
  /** Candidate fields other than `content` and `index` (finishReason, groundingMetadata…): the last sent wins. */
  readonly fields: Map<string, JsonValue>;
  open: OpenCall | undefined;
  /** Positions in `parts` of streamed calls whose arguments are still being built. */
  readonly building: Map<number, PartialArguments>;
  /** Positions in `parts` of streamed calls that never ended. */
  readonly unfinished: Set<number>;
}

/** One whole answer put together from the chunks of a stream (or from a whole answer, as its one chunk). */
export interface MergedResponse {
  /** A `GenerateContentResponse` as the non-streamed method would have answered it. */
  readonly response: JsonObject;
  /** Per candidate index, the positions of function-call parts the stream never finished. */
  readonly unfinishedCalls: ReadonlyMap<number, ReadonlySet<number>>;
  /** The `error` object of an error chunk, when the stream carried one. */
  readonly error: JsonObject | undefined;
}

/**
 * Folds `streamGenerateContent` chunks into the answer `generateContent` gives: each candidate's
 * parts in order, adjacent text of the same kind (thought or not) joined, a function call whole
 * (streamed arguments, `partialArgs` with `willContinue`, assembled), every `thoughtSignature`
 * kept byte for byte on the part it came with (a signature sent on an empty text part joins the
 * text before it, as the whole answer carries it), and the last value of every other field.
 */
export function mergeGeminiChunks(chunks: readonly JsonObject[]): MergedResponse {
  const candidates = new Map<number, CandidateState>();
  const top = new Map<string, JsonValue>();
  let error: JsonObject | undefined;
  for (const chunk of chunks) {
    for (const [key, value] of Object.entries(chunk)) {
      if (key === 'error') error = asObject(value) ?? { message: JSON.stringify(value) };
      else if (key !== 'candidates') top.set(key, value);
    }
    for (const value of asArray(chunk['candidates'])) {
      const candidate = asObject(value) ?? {};
      const index = asNumber(candidate['index']) ?? 0;
      let state = candidates.get(index);
      if (!state) {
        state = {
          parts: [],
          fields: new Map(),
          open: undefined,
          building: new Map(),
          unfinished: new Set(),
        };
        candidates.set(index, state);
      }
      for (const [key, field] of Object.entries(candidate))
        if (key !== 'content' && key !== 'index') state.fields.set(key, field);
      for (const part of asArray(asObject(candidate['content'])?.['parts']))
        addPart(state, asObject(part) ?? {});
    }
  }
  const ordered = [...candidates.entries()].sort(([left], [right]) => left - right);
  const response: { [key: string]: JsonValue } = {};
  if (ordered.length > 0)
    response['candidates'] = ordered.map(([index, state]) => candidateOf(index, state));
  for (const [key, value] of top) response[key] = value;
  return {
    response,
    unfinishedCalls: new Map(ordered.map(([index, state]) => [index, state.unfinished])),
    error,
  };
}

function addPart(state: CandidateState, part: JsonObject): void {
  const call = asObject(part['functionCall']);
  if (call) {
    addCallPart(state, part, call);
    return;
  }
  const text = asString(part['text']);
  const previous = state.parts.at(-1);
  if (
    text !== undefined &&
    previous !== undefined &&
    isPlainText(part) &&
    isPlainText(previous) &&
    previous['thought'] === part['thought'] &&
    previous['thoughtSignature'] === undefined
  ) {
    state.parts[state.parts.length - 1] = {
      ...previous,
      ...part,
      text: (asString(previous['text']) ?? '') + text,
    };
    return;
  }
  // An empty text part carries nothing but, sometimes, a signature (kept above when it can join).
  if (text === '' && isPlainText(part) && part['thoughtSignature'] === undefined) return;
  state.parts.push(part);
}

/** A text part with nothing else that would be lost by joining it to another. */
function isPlainText(part: JsonObject): boolean {
  return Object.keys(part).every(
    (key) => key === 'text' || key === 'thought' || key === 'thoughtSignature',
  );
}

function addCallPart(state: CandidateState, part: JsonObject, call: JsonObject): void {
  const open = state.open;
  if (open && asString(call['name']) === undefined) {
    // The next piece of the call being streamed.
    open.partialArgs.add(call['partialArgs']);
    const signature = part['thoughtSignature'];
    const current = state.parts[open.position] ?? {};
    if (signature !== undefined && current['thoughtSignature'] === undefined)
      state.parts[open.position] = { ...current, thoughtSignature: signature };
    if (call['willContinue'] !== true) {
      state.unfinished.delete(open.position);
      state.open = undefined;
    }
    return;
  }
  if (open) state.open = undefined;
  if (call['willContinue'] === true || call['partialArgs'] !== undefined) {
    const partialArgs = new PartialArguments();
    partialArgs.add(call['partialArgs']);
    const position = state.parts.length;
    const { willContinue: _more, partialArgs: _pieces, ...rest } = call;
    state.parts.push({ ...part, functionCall: { ...rest, args: {} } });
    state.building.set(position, partialArgs);
    if (call['willContinue'] === true) {
      state.open = { position, partialArgs };
      state.unfinished.add(position);
    }
    return;
  }
  state.parts.push(part);
}

function candidateOf(index: number, state: CandidateState): JsonObject {
  const parts = state.parts.map((part, position) => {
    const built = state.building.get(position);
    if (!built) return part;
    // A piece that did not fit leaves the call incomplete, with the arguments that did.
    if (!built.fits) state.unfinished.add(position);
    return {
      ...part,
      functionCall: { ...(asObject(part['functionCall']) ?? {}), args: built.value() },
    };
  });
  const candidate: { [key: string]: JsonValue } = { content: { parts, role: 'model' } };
  for (const [key, value] of state.fields) candidate[key] = value;
  candidate['index'] = index;
  return candidate;
}
