import type { Duplex } from 'node:stream';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';
import { classifyUpstreamFailure } from './classify-upstream-failure.js';
import { forwardUpstream } from './forward-upstream.js';
import { upstreamRequestHeaders } from './headers.js';
import type { PassThrough } from './pass-through.js';
import { readRequestBody } from './read-request-body.js';
import { sendError } from './send-error.js';
import { signedHeaders } from './signed-headers.js';
import type { Upstream } from './upstream.js';

/** What a signing pass-through needs: its upstream (or why there is none), the wire's error shape, the limits. */
export interface SignedPassThroughOptions {
  /** The upstream with its signer, looked up per request: it may not be configured. */
  upstream(): Upstream | CalltapeError;
  /** The error envelope the agent's SDK reads (Bedrock's `{"message"}` with `x-amzn-errortype`). */
  readonly adapter: ProviderAdapter;
  readonly config: Pick<Config, 'limits' | 'timeouts'>;
  readonly logger: Logger;
}

/**
 * Pass-through for an upstream whose requests are signed for its host (Bedrock's SigV4): the
 * body is read whole, since the signature covers its hash, the agent's signing headers are
 * replaced by a signature for the upstream exactly as on captured rounds, and the answer streams
 * back to the agent as it arrives. Nothing is parsed or recorded.
 */
export function createSignedPassThrough(options: SignedPassThroughOptions): PassThrough {
  const { adapter, config, logger } = options;
  const web = async (
    request: Parameters<PassThrough['web']>[0],
    response: Parameters<PassThrough['web']>[1],
  ): Promise<void> => {
    const startedPerf = performance.now();
    const method = request.method ?? 'GET';
    const path = request.url ?? '/';
    const read = await readRequestBody(request, config.limits.maxBodyBytes);
    if (read.kind === 'aborted') return;
    if (read.kind === 'too-large')
      return sendError(
        response,
        adapter,
        new CalltapeError(
          'BODY_TOO_LARGE',
          `calltape: the request body exceeds the limit of ${config.limits.maxBodyBytes} bytes (limits.maxBodyBytes)`,
        ),
      );
    const fail = (error: CalltapeError): void => {
      logger.error(error.message);
      sendError(response, adapter, error);
    };
    const upstream = options.upstream();
    if (upstream instanceof CalltapeError) return fail(upstream);
    const headers = await signedHeaders(
      upstream,
      { method, where: { path }, body: read.body },
      upstreamRequestHeaders(request.headers),
    );
    if (headers instanceof CalltapeError) return fail(headers);
    forwardUpstream({
      dispatcher: upstream.pool,
      request: {
        method,
        path: upstream.pathPrefix + path,
        headers,
        body: read.body,
        startedPerf,
        capture: false,
      },
      agent: response,
      delivery: 'stream',
      onFailureBeforeHeaders: (error) => {
        const failure = classifyUpstreamFailure(error, upstream.url, {
          connectMs: config.timeouts.upstreamConnectMs,
          headersMs: config.timeouts.upstreamHeadersMs,
        });
        fail(failure);
      },
      onDone: () => undefined,
    });
  };
  return {
    web: (request, response) => void web(request, response),
    ws: (_request: unknown, socket: Duplex) => {
      // Bedrock Runtime has no WebSocket API; a signed upgrade is refused, never relayed unsigned.
      socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    },
    // The upstream's pool belongs to the captured routes' upstreams, which close it.
    close: () => undefined,
  };
}
