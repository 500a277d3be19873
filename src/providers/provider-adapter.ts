import type { CalltapeError } from '../errors.js';
import type { InteractionStatus, JsonValue, ProviderId, RequestSummary, ResponseSummary } from '../trace/trace.js';

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
export interface ProviderAdapter {
  readonly id: ProviderId;
  /** Whether this adapter handles `method path` (path without any `/s/<id>` prefix or query). */
  matches(method: string, path: string): boolean;
  /** Summarises a parsed request body. Never throws: unexpected shapes yield empty fields. */
  parseRequest(body: JsonValue): RequestSummary;
  /** Parses a (possibly streamed, truncated or errored) response. Never throws. */
  parseResponse(input: ResponseInput): ParsedResponse;
  /** The provider's own error envelope for an error calltape raises, so the agent's SDK throws. */
  errorBody(error: CalltapeError): JsonValue;
  /** Whether a request body asks for a streamed answer (and, for the stream form, whether usage is wanted). */
  requestedForm(body: JsonValue): { readonly stream: boolean; readonly includeUsage: boolean };
  /**
   * Re-expresses a whole recorded body in the other form: a JSON answer as the provider's
   * stream, or a finished stream as the JSON answer. Undefined when it cannot (truncated stream).
   */
  convertBody(body: string, to: { readonly stream: boolean; readonly includeUsage: boolean }): { readonly contentType: string; readonly body: string } | undefined;
}
