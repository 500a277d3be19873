/**
 * The error catalogue. Every error calltape raises carries a stable `code`, the facts, and a
 * hint; the proxy turns it into the provider's own error shape (`ProviderAdapter.errorBody`),
 * the CLI into `code: message` and an exit code.
 */
export const errorCodes = {
  /** The request is malformed in a way calltape checks (e.g. an invalid session id). → 400 */
  INVALID_REQUEST: { status: 400, type: 'invalid_request_error' },
  /** The request body is not valid JSON. → 400 */
  INVALID_JSON: { status: 400, type: 'invalid_request_error' },
  /** The request body exceeds `limits.maxBodyBytes`. → 413 */
  BODY_TOO_LARGE: { status: 413, type: 'invalid_request_error' },
  /** The upstream could not be reached (DNS, refused, reset before any answer). → 502 */
  UPSTREAM_UNREACHABLE: { status: 502, type: 'upstream_error' },
  /** The upstream sent no response headers within `timeouts.upstreamHeadersMs`. → 504 */
  UPSTREAM_TIMEOUT: { status: 504, type: 'upstream_error' },
  /** Replay found no recording for the request (or ran out of recordings of it). → 404, run exits 1 */
  CASSETTE_MISS: { status: 404, type: 'cassette_miss' },
  /** The model called a tool that is neither mocked nor allowed, under mocks.strictTools. → 403, run exits 1 */
  STRICT_TOOLS: { status: 403, type: 'calltape_strict_tools' },
  /** The model kept calling mocked tools past mocks.maxHiddenRounds. → 508 */
  MOCK_LOOP: { status: 508, type: 'calltape_mock_loop' },
  /** A configuration file, environment variable or flag is invalid. → exit 2 */
  CONFIG_INVALID: { status: 500, type: 'calltape_error' },
  /** The store could not be opened, migrated or written. → exit 3 */
  STORE_IO: { status: 500, type: 'calltape_error' },
} as const;

export type ErrorCode = keyof typeof errorCodes;

/** An error with a stable code, the facts behind it and an optional hint for the user. */
export class CalltapeError extends Error {
  override readonly name = 'CalltapeError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The HTTP status the proxy answers with for this error. */
  get status(): number {
    return errorCodes[this.code].status;
  }

  /** The provider-style error `type` for this error. */
  get type(): string {
    return errorCodes[this.code].type;
  }
}
