/** The configured upstream a route goes to, by name (`upstream`, `anthropicUpstream`, `geminiUpstream`…). */
export type UpstreamName =
  'openai' | 'anthropic' | 'gemini' | 'vertex' | 'ollama' | 'azure' | 'bedrock';

/** Every upstream name, in the order the proxy creates them. */
export const upstreamNames: readonly UpstreamName[] = [
  'openai',
  'anthropic',
  'gemini',
  'vertex',
  'ollama',
  'azure',
  'bedrock',
];

/**
 * What the path itself says about the answer's form, on wires whose path decides it: Gemini's
 * `:streamGenerateContent` streams as SSE with `?alt=sse` and as one JSON array without it;
 * Bedrock's `converse-stream` and `invoke-with-response-stream` as event-stream frames.
 */
export type PathStream = 'sse' | 'json-array' | 'event-stream';

/**
 * A request an adapter captures, as its path (and query) resolve it: where it goes and what
 * the path says that the body may not. Pure data, rebuilt from a stored round's method and path
 * (`routeOfStored`), so a recording re-parses exactly as it was captured.
 */
export interface WireRoute {
  /** The upstream the request is forwarded to. */
  readonly upstream: UpstreamName;
  /** The path without query and session prefixes, as stored in the cassette (e.g. `/v1/messages` for `/messages`). */
  readonly path: string;
  /** The model or deployment the path names (Gemini, Vertex, Azure deployments); undefined when the body carries it. */
  readonly model?: string | undefined;
  /** When the path asks for a stream: its form. Undefined: the body decides (`stream: true`). */
  readonly stream?: PathStream | undefined;
  /** Vertex AI: the location the path names, which picks the regional endpoint. */
  readonly location?: string | undefined;
  /**
   * A recorded read (Ollama's model list and model card): no conversation and no tool calls,
   * recorded and replayed like any round so a client that asks before it chats runs offline,
   * never mocked, and never a round of a trajectory.
   */
  readonly read?: true | undefined;
}

/** The query of a request as its parameters, decoded; `?key=` and other credentials included (never stored from here). */
export type RouteQuery = ReadonlyMap<string, string>;

/**
 * A path split at its `?`: the path and its query parameters. Malformed percent escapes are
 * kept as written rather than thrown on (a query is agent input).
 */
export function splitPathQuery(pathWithQuery: string): { path: string; query: RouteQuery } {
  const queryAt = pathWithQuery.indexOf('?');
  if (queryAt === -1) return { path: pathWithQuery, query: new Map() };
  const query = new Map<string, string>();
  for (const pair of pathWithQuery.slice(queryAt + 1).split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decodePart(equals === -1 ? pair : pair.slice(0, equals));
    if (!query.has(name)) query.set(name, decodePart(equals === -1 ? '' : pair.slice(equals + 1)));
  }
  return { path: pathWithQuery.slice(0, queryAt), query };
}

function decodePart(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A request summary with the model the route names, when the body named none (an Azure deployment, a Gemini path). */
export function withRouteModel<T extends { readonly model: string | undefined }>(
  summary: T,
  route: WireRoute | undefined,
): T {
  return summary.model === undefined && route?.model !== undefined
    ? { ...summary, model: route.model }
    : summary;
}
