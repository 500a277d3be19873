import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Hash } from '@smithy/core/serde';
import { SignatureV4 } from '@smithy/signature-v4';
import { CalltapeError } from '../errors.js';
import type { OutgoingHeaders } from './headers.js';

/** A request on its way to Bedrock, as the signer needs it. */
export interface SignableRequest {
  readonly method: string;
  /** The path as sent (model ids still percent-encoded), without the query. */
  readonly path: string;
  readonly query: ReadonlyMap<string, string>;
  readonly headers: OutgoingHeaders;
  readonly body: Uint8Array;
}

/** Signs forwarded requests for one Bedrock Runtime endpoint. */
export type BedrockSigner = (request: SignableRequest) => Promise<OutgoingHeaders | CalltapeError>;

/**
 * The agent's signing headers: its SigV4 signature is for calltape's host and would be refused
 * upstream, and none of them may reach a cassette or the match key.
 */
export const agentSigningHeaders: ReadonlySet<string> = new Set([
  'authorization',
  'x-amz-date',
  'x-amz-security-token',
  'x-amz-content-sha256',
]);

/**
 * A SigV4 signer (the AWS SDK's own, service `bedrock`) for `origin` in `region`, with the
 * credentials of the default AWS chain (environment, shared config and profile, SSO, web identity,
 * container and instance roles). The chain is resolved on the first signature, not at start, so
 * replay never needs credentials, and the SDK's memoised provider refreshes them before they expire.
 */
export function createBedrockSigner(origin: string, region: string): BedrockSigner {
  const credentials = defaultProvider();
  const signer = new SignatureV4({
    service: 'bedrock',
    region,
    credentials,
    sha256: Hash.bind(null, 'sha256'),
    uriEscapePath: true,
  });
  const url = new URL(origin);
  return async (request) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (agentSigningHeaders.has(name)) continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    headers['host'] = url.host;
    try {
      const signed = await signer.sign({
        method: request.method,
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port !== '' ? { port: Number(url.port) } : {}),
        path: request.path,
        query: Object.fromEntries(request.query),
        headers,
        body: request.body,
      });
      return signed.headers;
    } catch (error) {
      return new CalltapeError(
        'NO_API_KEY',
        `calltape: no AWS credentials to sign the Bedrock request with (${error instanceof Error ? error.message : String(error)}); set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE, an SSO login, a container or instance role) where calltape runs. Replay needs none.`,
      );
    }
  };
}
