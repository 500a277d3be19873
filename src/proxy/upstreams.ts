import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { UpstreamName, WireRoute } from '../providers/wire-route.js';
import { createBedrockSigner } from './bedrock-signer.js';
import { createUpstream, type Upstream } from './upstream.js';

/** The upstreams the proxy forwards captured routes to, one keep-alive pool each, created on first use. */
export interface Upstreams {
  /** The upstream `route` goes to, or the error (in calltape's catalogue) that says how to configure it. */
  for(route: Pick<WireRoute, 'upstream' | 'location'>): Upstream | CalltapeError;
  /** The OpenAI upstream (`upstream`), which the Responses WebSocket mode also uses. */
  readonly openai: Upstream;
  /** Closes every pool created. */
  destroy(): Promise<void>;
}

/**
 * Regional Vertex AI endpoints kept open at once; past it the least recently created is closed
 * once idle. A location is agent input: without a bound, a client cycling through made-up
 * locations would open a pool for each.
 */
export const maxVertexPools = 16;

/** Locations as Vertex AI names them (`us-central1`, `europe-west4`, `global`). */
const locationPattern = /^[a-z][a-z0-9-]{0,39}$/;

/**
 * The origin of a configured upstream, by name; undefined where the configuration sets none
 * (Azure has no default; Vertex's default depends on the location).
 */
export function configuredUpstream(config: Config, name: UpstreamName): string | undefined {
  switch (name) {
    case 'openai':
      return config.upstream;
    case 'anthropic':
      return config.anthropicUpstream;
    case 'gemini':
      return config.geminiUpstream;
    case 'ollama':
      return config.ollamaUpstream;
    case 'vertex':
      return config.vertexUpstream ?? undefined;
    case 'azure':
      return config.azureUpstream ?? undefined;
    case 'bedrock':
      return bedrockOrigin(config);
  }
}

/** Bedrock Runtime's origin: the configured one, else the regional endpoint; undefined without a region. */
export function bedrockOrigin(config: Config): string | undefined {
  if (config.bedrockUpstream !== null) return config.bedrockUpstream;
  return config.bedrockRegion === null
    ? undefined
    : `https://bedrock-runtime.${config.bedrockRegion}.amazonaws.com`;
}

/** The error a Bedrock route gets when no region is known to sign for. */
export function noBedrockRegion(): CalltapeError {
  return new CalltapeError(
    'UPSTREAM_UNREACHABLE',
    'calltape: no AWS region is configured for Bedrock routes: set bedrockRegion (CALLTAPE_BEDROCK_REGION or --bedrock-region), or AWS_REGION where calltape runs, e.g. us-east-1',
  );
}

/**
 * Vertex AI's endpoint for a location: `https://{location}-aiplatform.googleapis.com`, the
 * global one without a prefix. Undefined for a text that is not a location name: it comes from
 * the agent's path and must never steer the host elsewhere.
 */
export function vertexOrigin(location: string | undefined): string | undefined {
  if (location === undefined || !locationPattern.test(location)) return undefined;
  return location === 'global'
    ? 'https://aiplatform.googleapis.com'
    : `https://${location}-aiplatform.googleapis.com`;
}

/** The error a Vertex AI path without a valid location gets. */
export function noVertexLocation(location: string | undefined): CalltapeError {
  return new CalltapeError(
    'INVALID_REQUEST',
    `calltape: the Vertex AI location ${JSON.stringify(location ?? '')} is not a location name (e.g. us-central1, global)`,
  );
}

/** The error an Azure OpenAI route gets when no Azure endpoint is configured. */
export function noAzureUpstream(): CalltapeError {
  return new CalltapeError(
    'UPSTREAM_UNREACHABLE',
    'calltape: no Azure OpenAI upstream is configured for /openai/… routes: set azureUpstream (CALLTAPE_AZURE_UPSTREAM or --azure-upstream) to your resource endpoint, e.g. https://my-resource.openai.azure.com',
  );
}

export function createUpstreams(config: Config): Upstreams {
  const named = new Map<UpstreamName, Upstream>();
  const regional = new Map<string, Upstream>();
  const openai = createUpstream(config);
  named.set('openai', openai);
  const closing: Promise<void>[] = [];
  const vertex = (location: string | undefined): Upstream | CalltapeError => {
    const origin = vertexOrigin(location);
    if (origin === undefined || location === undefined) return noVertexLocation(location);
    let upstream = regional.get(location);
    if (upstream) return upstream;
    if (regional.size >= maxVertexPools) {
      const [oldest, pool] = regional.entries().next().value as [string, Upstream];
      regional.delete(oldest);
      // close() lets requests on it finish; destroy() would cut them.
      closing.push(pool.pool.close());
    }
    upstream = createUpstream(config, origin);
    regional.set(location, upstream);
    return upstream;
  };
  return {
    openai,
    for(route) {
      const existing = named.get(route.upstream);
      if (existing) return existing;
      const target = configuredUpstream(config, route.upstream);
      if (target === undefined) {
        if (route.upstream === 'vertex') return vertex(route.location);
        if (route.upstream === 'bedrock') return noBedrockRegion();
        return noAzureUpstream();
      }
      if (route.upstream === 'bedrock' && config.bedrockRegion === null) return noBedrockRegion();
      const upstream =
        route.upstream === 'bedrock' && config.bedrockRegion !== null
          ? {
              ...createUpstream(config, target),
              sign: createBedrockSigner(target, config.bedrockRegion),
            }
          : createUpstream(config, target);
      named.set(route.upstream, upstream);
      return upstream;
    },
    async destroy() {
      await Promise.all([
        ...[...named.values(), ...regional.values()].map((upstream) => upstream.pool.destroy()),
        ...closing,
      ]);
    },
  };
}
