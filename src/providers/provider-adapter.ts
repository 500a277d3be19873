import type { CalltapeError } from '../errors.js';
import type { PairedToolResult } from './pair-tool-results.js';
import type { PrefixKey } from '../trace/prefix-hash.js';
import type { RouteQuery, WireRoute } from './wire-route.js';
import type {
  AssistantOutput,
  InteractionStatus,
  JsonValue,
  ProviderId,
  RequestSummary,
  ResponseSummary,
} from '../trace/trace.js';

/** How the response's byte stream ended, as the proxy observed it. */
export type ResponseEnding =
  /** The upstream finished the body normally. */
  | 'finished'
  /** The upstream connection failed mid-body (reset, timeout). */
  | 'upstream-failed'
  /** The agent disconnected and the proxy aborted the upstream request. */
  | 'client-aborted';

/** The raw material of a response, already decompressed, as the adapter parses it. */
export interface ResponseInput {
  readonly httpStatus: number;
  /** The `content-type` header, lower-cased; undefined when absent. */
  readonly contentType: string | undefined;
  /** Body bytes in the chunks they arrived in; any split must parse to the same result. */
  readonly body: readonly Uint8Array[];
  readonly ending: ResponseEnding;
  /** The request's route, when known: for wires whose path decides the answer's form (Gemini's JSON-array stream). */
  readonly route?: WireRoute | undefined;
}

/** What an adapter concluded about a response. */
export interface ParsedResponse {
  readonly response: ResponseSummary | undefined;
  readonly status: InteractionStatus;
  readonly error: string | undefined;
}

/**
 * One wire format: recognises its routes and turns its requests and responses into the trace
 * model. Pure: adapters never touch sockets, files or clocks.
 */
/** A mocked call's result, as it goes back to the model. */
export interface ToolResultMessage {
  readonly callId: string;
  readonly content: string;
  readonly isError: boolean;
}

/**
 * What the in-proxy tool loop needs from a wire format: answer some of the model's calls
 * itself, hide them from the agent, and put them back into the agent's later requests.
 */
export interface ToolLoopWire {
  /**
   * The messages a model turn and the results of (some of) its calls become in this wire format.
   * `answerBody` is the answer as the provider sent it, for wires whose turns carry more than the
   * trace keeps and must go back verbatim (Gemini's thought signatures).
   */
  turnMessages(
    output: AssistantOutput,
    results: readonly ToolResultMessage[],
    answerBody?: string,
  ): JsonValue[];
  /** The request body with `messages` appended to its conversation. */
  appendMessages(body: JsonValue, messages: readonly JsonValue[]): JsonValue;
  /**
   * For wires that keep the conversation server-side: the next hidden round's body, continuing
   * the answered response by id with only the results. Undefined: append instead.
   */
  continueAfter?(
    body: JsonValue,
    responseId: string | undefined,
    results: readonly ToolResultMessage[],
  ): JsonValue | undefined;
  /** For wires that continue by response id: the key the hidden history of a response is kept under, beside the prefix key. */
  responseKey?(responseId: string): PrefixKey;
  /**
   * For wires whose agents may send an earlier answer back by reference rather than in full
   * (Responses `item_reference`, which the AI SDK sends): one key per item of the answer, under
   * which the hidden rounds before that answer are kept, for `splice` to put back in front of it.
   */
  referenceKeys?(answerBody: string): PrefixKey[];
  /**
   * The request body with hidden history put back: for each assistant message, `replace` gets
   * the prefix key of the agent's conversation up to and including it and may return the
   * messages to stand in its place. Undefined when nothing was replaced.
   */
  splice(
    body: JsonValue,
    replace: (key: PrefixKey) => readonly JsonValue[] | undefined,
  ): JsonValue | undefined;
  /** The tool results the request carries, each with the call it answers (found in an earlier assistant message of the request). */
  toolResults(body: JsonValue): PairedToolResult[];
  /** The request body with the content of some tool results replaced, by call id. */
  withToolResults(body: JsonValue, contents: ReadonlyMap<string, string>): JsonValue;
  /** The agent-visible answer: a whole response body (in the form it was answered in) without the calls `drop` names. */
  withoutCalls(
    body: string,
    form: { readonly stream: boolean; readonly includeUsage: boolean },
    drop: ReadonlySet<string>,
  ): string | undefined;
}

export interface ProviderAdapter {
  readonly id: ProviderId;
  /**
   * The route of `method path` on this wire, or undefined when this adapter does not capture it.
   * `path` is without any `/s/<id>` or `/c/<name>/` prefix and without the query, which comes
   * decoded in `query` (it may hold credentials, `?key=`: read facts from it, never keep it).
   */
  route(method: string, path: string, query: RouteQuery): WireRoute | undefined;
  /** The routes `route` captures, as named in messages (`/v1/messages`, `/openai/…/responses`). */
  readonly routeNames?: readonly string[];
  /**
   * Summarises a parsed request body; the route supplies what the path says (the model, the
   * stream) when the body lacks it. Never throws: unexpected shapes yield empty fields.
   */
  parseRequest(body: JsonValue, route?: WireRoute): RequestSummary;
  /** Parses a (possibly streamed, truncated or errored) response. Never throws. */
  parseResponse(input: ResponseInput): ParsedResponse;
  /** The provider's own error envelope for an error calltape raises, so the agent's SDK throws. */
  errorBody(error: CalltapeError): JsonValue;
  /** Headers that go with `errorBody`, for wires whose SDKs read the error's kind from one (Bedrock's `x-amzn-errortype`). */
  errorHeaders?(error: CalltapeError): Readonly<Record<string, string>>;
  /**
   * The wire's streams are binary (Bedrock's event-stream frames): `convertBody` takes and gives
   * bodies as binary strings, one character a byte (`latin1`), never as UTF-8 text.
   */
  readonly binaryBodies?: true;
  /**
   * Whether a request asks for a streamed answer (and, for the stream form, whether usage is
   * wanted): from the body, or from the route where the path decides (Gemini).
   */
  requestedForm(
    body: JsonValue,
    route?: WireRoute,
  ): { readonly stream: boolean; readonly includeUsage: boolean };
  /**
   * Re-expresses a whole recorded body in the other form: a JSON answer as the provider's
   * stream, or a finished stream as the JSON answer. Undefined when it cannot (truncated stream).
   * `route` is the request's, for wires with more than one stream form.
   */
  convertBody(
    body: string,
    to: { readonly stream: boolean; readonly includeUsage: boolean },
    route?: WireRoute,
  ): { readonly contentType: string; readonly body: string } | undefined;
  /** Present when this wire format supports mock tools answered inside the proxy. */
  readonly toolLoop?: ToolLoopWire;
  /**
   * Body paths (`ignorePaths` syntax) whose values the agent's client makes up itself, differently
   * on every run: left out of every match key, or no recording of them would ever replay.
   */
  readonly clientMadePaths?: readonly string[];
}
