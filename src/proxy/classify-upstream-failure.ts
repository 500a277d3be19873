import { printableUrl } from '../cassette/printable-url.js';
import { CalltapeError } from '../errors.js';

/** Turns an undici failure before response headers into the error the agent receives (502 or 504). */
export function classifyUpstreamFailure(
  error: Error,
  upstreamUrl: string,
  timeouts: { readonly connectMs: number; readonly headersMs: number },
): CalltapeError {
  const upstream = printableUrl(upstreamUrl);
  const code = (error as { code?: unknown }).code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new CalltapeError(
      'UPSTREAM_TIMEOUT',
      `calltape: the upstream ${upstream} sent no response within ${timeouts.headersMs} ms`,
      'Raise timeouts.upstreamHeadersMs if the model needs longer.',
      { cause: error },
    );
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new CalltapeError(
      'UPSTREAM_TIMEOUT',
      `calltape: could not connect to the upstream ${upstream} within ${timeouts.connectMs} ms`,
      undefined,
      { cause: error },
    );
  }
  const detail = [code, error.message]
    .filter((part) => typeof part === 'string' && part.length > 0)
    .join(' ');
  return new CalltapeError(
    'UPSTREAM_UNREACHABLE',
    `calltape: could not reach the upstream ${upstream} (${detail})`,
    'Check --upstream and the network.',
    { cause: error },
  );
}
