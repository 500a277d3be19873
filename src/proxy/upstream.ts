import type { Pool as UndiciPool } from 'undici';
// The pool alone, not undici's index (see undici-pool.d.ts).
import Pool from 'undici/lib/dispatcher/pool.js';
import type { Config } from '../config/config.js';
import type { BedrockSigner } from './bedrock-signer.js';

/** The provider origin requests go to, with its keep-alive connection pool. */
export interface Upstream {
  /** e.g. `https://api.openai.com` (no path). */
  readonly origin: string;
  /** Path prefix joined in front of every request path ('' or `/openai`). */
  readonly pathPrefix: string;
  /** The configured upstream URL, for messages. */
  readonly url: string;
  readonly pool: UndiciPool;
  /** For upstreams whose requests are signed for their host (Bedrock's SigV4): the headers to send instead of the agent's. */
  readonly sign?: BedrockSigner;
}

export function createUpstream(config: Config, target: string = config.upstream): Upstream {
  const url = new URL(target);
  const pool = new Pool(url.origin, {
    connect: { timeout: config.timeouts.upstreamConnectMs },
    headersTimeout: config.timeouts.upstreamHeadersMs,
    bodyTimeout: config.timeouts.upstreamBodyMs,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 600_000,
    // No pipelining: one slow stream must never hold up the requests queued behind it.
    pipelining: 1,
  });
  return {
    origin: url.origin,
    pathPrefix: url.pathname.replace(/\/+$/, ''),
    url: target,
    pool,
  };
}
