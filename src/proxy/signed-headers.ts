import type { CalltapeError } from '../errors.js';
import { splitPathQuery } from '../providers/wire-route.js';
import type { OutgoingHeaders } from './headers.js';
import type { Upstream } from './upstream.js';

/** The headers a round goes upstream with on an upstream that signs (Bedrock): signed for its host, or why they could not be. */
export function signedHeaders(
  upstream: Upstream,
  round: {
    readonly method: string;
    readonly where: { readonly path: string };
    readonly body: Buffer;
  },
  headers: OutgoingHeaders,
): Promise<OutgoingHeaders | CalltapeError> {
  if (!upstream.sign) return Promise.resolve(headers);
  const { path, query } = splitPathQuery(round.where.path);
  return upstream.sign({
    method: round.method,
    path: upstream.pathPrefix + path,
    query,
    headers,
    body: round.body,
  });
}
