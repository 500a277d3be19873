/**
 * The error catalogue. Every error calltape raises carries a stable `code`, the facts, and a
 * hint; the proxy turns it into the provider's own error shape (`ProviderAdapter.errorBody`),
 * the CLI into `code: message` and an exit code.
 */
export const errorCodes = {
  /** The request is malformed in a way calltape checks (e.g. an invalid session id). → 400 */
  INVALID_REQUEST: { status: 400, type: 'invalid_request_error', exitCode: 2 },
  /** The request body is not valid JSON. → 400 */
  INVALID_JSON: { status: 400, type: 'invalid_request_error', exitCode: 2 },
  /** The request body exceeds `limits.maxBodyBytes`. → 413 */
  BODY_TOO_LARGE: { status: 413, type: 'invalid_request_error', exitCode: 2 },
  /** The upstream could not be reached (DNS, refused, reset before any answer). → 502 */
  UPSTREAM_UNREACHABLE: { status: 502, type: 'upstream_error', exitCode: 3 },
  /** The upstream sent no response headers within `timeouts.upstreamHeadersMs`. → 504 */
  UPSTREAM_TIMEOUT: { status: 504, type: 'upstream_error', exitCode: 3 },
  /** An answer calltape must hold whole (a tool-loop round under mocks) outgrew `limits.maxResponseBytes` or `limits.maxDecodedBytes`. → 502 */
  RESPONSE_TOO_LARGE: { status: 502, type: 'upstream_error', exitCode: 3 },
  /** In auto mode a request the cassette cannot answer carries only calltape's placeholder key. → 401, run exits 2 */
  NO_API_KEY: { status: 401, type: 'authentication_error', exitCode: 2 },
  /** Replay found no recording for the request (or ran out of recordings of it). → 404, run exits 1 */
  CASSETTE_MISS: { status: 404, type: 'cassette_miss', exitCode: 1 },
  /** The model called a tool that is neither mocked nor allowed, under mocks.strictTools. → 403, run exits 1 */
  STRICT_TOOLS: { status: 403, type: 'calltape_strict_tools', exitCode: 1 },
  /** The model kept calling mocked tools past mocks.maxHiddenRounds. → 508 */
  MOCK_LOOP: { status: 508, type: 'calltape_mock_loop', exitCode: 1 },
  /** A request or upgrade listener failed on something other than malformed input (a calltape bug): answered, logged with its stack and counted. → 500 */
  LISTENER_FAILED: { status: 500, type: 'calltape_error', exitCode: 3 },
  /** A configuration file, environment variable or flag is invalid. → exit 2 */
  CONFIG_INVALID: { status: 500, type: 'calltape_error', exitCode: 2 },
  /** The store could not be opened, migrated or written. → exit 3 */
  STORE_IO: { status: 500, type: 'calltape_error', exitCode: 3 },
  /** The case generator model could not answer, or answered something other than the JSON asked for. → exit 3 */
  GENERATOR_FAILED: { status: 502, type: 'calltape_error', exitCode: 3 },
  /** `calltape cases promote`: replaying a session as a case did not reproduce it (other calls, more or fewer round trips). → exit 3 */
  PROMOTE_FAILED: { status: 500, type: 'calltape_error', exitCode: 3 },
} as const satisfies Record<string, ErrorCodeEntry>;

/** What the catalogue says about one code. */
export interface ErrorCodeEntry {
  /** The HTTP status the proxy answers the agent with. */
  readonly status: number;
  /** The provider-style error `type` in the agent-facing error body. */
  readonly type: string;
  /** The process exit code the CLI ends with when this error stops it (0 ok, 1 checks failed, 2 usage or configuration, 3 infrastructure). */
  readonly exitCode: 1 | 2 | 3;
}

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

  /** The exit code the CLI ends with when this error stops it. */
  get exitCode(): number {
    return errorCodes[this.code].exitCode;
  }
}

/**
 * Whether a value is a calltape error: also true for one thrown by another copy of the package
 * (a second install in `node_modules`), where `instanceof` would say no.
 */
export function isCalltapeError(value: unknown): value is CalltapeError {
  if (value instanceof CalltapeError) return true;
  if (!(value instanceof Error) || value.name !== 'CalltapeError') return false;
  const code = (value as { code?: unknown }).code;
  return typeof code === 'string' && Object.hasOwn(errorCodes, code);
}
