/** Matching rules: what is left out of a request's identity and what is normalised in it. */
export interface MatchRules {
  /** Body paths removed before keying: `user`, `metadata.trace_id`, `messages[].name`. */
  readonly ignorePaths: readonly string[];
  /** Applied to every string in the body, in order, identically on record and replay. */
  readonly normalisers: readonly Normaliser[];
  /**
   * Azure OpenAI routes (`/openai/…`): whether their `api-version` query parameter is part of the
   * key (`match`) or left out of it (`ignore`, the default: a version bump does not make every
   * recording a miss). It stays in the stored path either way. Absent: `ignore`.
   */
  readonly azureApiVersion?: 'ignore' | 'match';
}

/** A built-in normaliser by name, or a regular expression and its replacement. */
export type Normaliser =
  | BuiltinNormaliser
  | { readonly pattern: string; readonly flags?: string; readonly replacement: string };
export type BuiltinNormaliser = 'iso-datetime' | 'uuid' | 'tool-call-ids';

/** The proxy's configuration, after defaults, file, environment and flags are merged. */
export interface Config {
  readonly host: string;
  readonly port: number;
  /** Upstream origin, with an optional path prefix and no trailing slash. */
  readonly upstream: string;
  /** The Anthropic upstream, same form: `/v1/messages` and pass-through requests with Anthropic headers go here. */
  readonly anthropicUpstream: string;
  /** The Gemini API upstream, same form: `/v1beta/models/…` and `/v1/models/…` go here. */
  readonly geminiUpstream: string;
  /** The Vertex AI upstream for `/v1…/projects/…`; null: the regional endpoint the path's location names. */
  readonly vertexUpstream: string | null;
  /** The Ollama upstream: `/api/…` goes here. */
  readonly ollamaUpstream: string;
  /** The Azure OpenAI resource endpoint for `/openai/…`; null: none (those routes get an error saying how to set it). */
  readonly azureUpstream: string | null;
  /** The Amazon Bedrock Runtime upstream for `/model/…`; null: `https://bedrock-runtime.{bedrockRegion}.amazonaws.com`. */
  readonly bedrockUpstream: string | null;
  /** The AWS region of the Bedrock Runtime endpoint (and of the SigV4 signature); null: none known (AWS_REGION and AWS_DEFAULT_REGION were unset). */
  readonly bedrockRegion: string | null;
  readonly mode: ProxyMode;
  /** Absolute path of the SQLite store. */
  readonly cassette: string;
  readonly replayTiming: ReplayTiming;
  readonly expiry: {
    readonly maxAge: string | null;
    readonly onExpired: 'warn' | 'error' | 'rerecord';
  };
  readonly match: MatchConfig;
  readonly logLevel: LogLevel;
  /** Modes of the files calltape creates: `private` (0600 files, 0700 folders) or `umask` (see private-files.ts). */
  readonly fileAccess: 'private' | 'umask';
  readonly limits: LimitsConfig;
  readonly timeouts: {
    readonly upstreamConnectMs: number;
    readonly upstreamHeadersMs: number;
    readonly upstreamBodyMs: number;
    readonly keepAliveMs: number;
    readonly shutdownGraceMs: number;
    /** Time an agent has to send a request's headers (node:http `headersTimeout`). */
    readonly requestHeadersMs: number;
    /** Time an agent has to send a whole request, body included (node:http `requestTimeout`). */
    readonly requestMs: number;
    /** A relayed WebSocket or feed client silent this long (no frame, no pong) is closed. */
    readonly webSocketIdleMs: number;
  };
  readonly redact: {
    readonly headers: readonly string[];
    readonly bodyPatterns: readonly BodyPattern[];
    /** Whether the built-in patterns for well-known key shapes (sk-…, sk-ant-…, AIza…) apply beside `bodyPatterns`. */
    readonly builtinPatterns: boolean;
  };
  readonly cassettes: CassettesConfig;
  readonly mocks: MocksConfig;
  readonly mcp: McpConfig;
  readonly shadow: ShadowConfig;
  readonly admin: {
    readonly token: string | null;
    /** Host names (beside loopback names and IP literals) the admin surfaces answer to. */
    readonly allowedHosts: readonly string[];
  };
}

/** What one request or one response may make calltape hold. */
export interface LimitsConfig {
  /** Largest request body accepted (413 past it). */
  readonly maxBodyBytes: number;
  /** Response bytes captured per round trip; past it the agent still gets every byte, the recording is truncated. */
  readonly maxResponseBytes: number;
  /** Bytes a compressed response may decode to for parsing; past it the recording is truncated. */
  readonly maxDecodedBytes: number;
  /** Bytes of captured rounds waiting for the store worker; past it new rounds are dropped and counted. */
  readonly maxStoreQueueBytes: number;
  /** Agent connections open at once (node:http `maxConnections`). */
  readonly maxConnections: number;
}

/** How requests may choose a cassette. */
export interface CassettesConfig {
  /** Whether a request may pick a cassette and mode with `/c/<name>[:<mode>]/`. */
  readonly allowRequestOverride: boolean;
  /** Cassettes kept open at once; the least recently used is closed past it. */
  readonly maxOpen: number;
}

export interface ShadowConfig {
  /** Absolute path of the policies file; null: shadow scoring is off. */
  readonly policies: string | null;
  /** Absolute path of the shadow-scoring database. */
  readonly database: string;
  readonly queueSize: number;
  readonly retention: { readonly maxRows: number | null; readonly maxAge: string | null };
}

export interface MocksConfig {
  /** Absolute paths of the mock files. */
  readonly files: readonly string[];
  /** Sets in force when a request names none; null: every file. */
  readonly active: readonly string[] | null;
  /** intercept: the proxy answers mocked calls; override: the agent runs them and the proxy replaces their results. */
  readonly mode: 'intercept' | 'override';
  readonly maxHiddenRounds: number;
  readonly strictTools: boolean;
  readonly allowTools: readonly string[];
}

/** MCP servers the proxy fronts over Streamable HTTP (`/mcp/<name>`). */
export interface McpConfig {
  /** Server name → its endpoint URL; read with `Object.hasOwn` (the names come from request paths). */
  readonly servers: Readonly<Record<string, string>>;
}

export type ProxyMode = 'record' | 'replay' | 'auto' | 'diff' | 'passthrough';

/** `none`, `exact`, or `scaled:F`. */
export type ReplayTiming = string;

export interface MatchConfig extends MatchRules {
  readonly onExhausted: 'error' | 'repeat-last';
  /** A recording answers both streamed and non-streamed requests; `stream` leaves the key. */
  readonly streamAgnostic: boolean;
}
export type LogLevel = 'silent' | 'error' | 'info' | 'debug';

export interface BodyPattern {
  readonly pattern: string;
  readonly flags: string;
  readonly replacement: string;
}

/** Built-in defaults; kept equal to the `default`s in config/proxy.config.schema.json (a test checks). */
export const defaultConfig: Config = {
  host: '127.0.0.1',
  port: 4545,
  upstream: 'https://api.openai.com',
  anthropicUpstream: 'https://api.anthropic.com',
  geminiUpstream: 'https://generativelanguage.googleapis.com',
  vertexUpstream: null,
  ollamaUpstream: 'http://127.0.0.1:11434',
  azureUpstream: null,
  bedrockUpstream: null,
  bedrockRegion: null,
  mode: 'record',
  cassette: 'recordings/calltape.sqlite',
  replayTiming: 'none',
  expiry: { maxAge: null, onExpired: 'warn' },
  match: {
    ignorePaths: ['user', 'metadata', 'store', 'service_tier'],
    normalisers: ['iso-datetime', 'uuid'],
    azureApiVersion: 'ignore',
    onExhausted: 'error',
    streamAgnostic: false,
  },
  logLevel: 'info',
  fileAccess: 'private',
  limits: {
    maxBodyBytes: 32 * 1024 * 1024,
    maxResponseBytes: 32 * 1024 * 1024,
    maxDecodedBytes: 256 * 1024 * 1024,
    maxStoreQueueBytes: 256 * 1024 * 1024,
    maxConnections: 1024,
  },
  timeouts: {
    upstreamConnectMs: 10_000,
    upstreamHeadersMs: 600_000,
    upstreamBodyMs: 3_600_000,
    keepAliveMs: 75_000,
    shutdownGraceMs: 10_000,
    requestHeadersMs: 30_000,
    requestMs: 120_000,
    webSocketIdleMs: 300_000,
  },
  redact: { headers: [], bodyPatterns: [], builtinPatterns: true },
  cassettes: { allowRequestOverride: false, maxOpen: 32 },
  mocks: {
    files: [],
    active: null,
    mode: 'intercept',
    maxHiddenRounds: 8,
    strictTools: false,
    allowTools: [],
  },
  mcp: { servers: {} },
  shadow: {
    policies: null,
    database: 'recordings/calltape-shadow.sqlite',
    queueSize: 10_000,
    retention: { maxRows: 1_000_000, maxAge: '7d' },
  },
  admin: { token: null, allowedHosts: [] },
};

/** A partial configuration as one layer (file, environment, flags) gives it. */
export interface ConfigLayer {
  host?: string;
  port?: number;
  upstream?: string;
  anthropicUpstream?: string;
  geminiUpstream?: string;
  vertexUpstream?: string | null;
  ollamaUpstream?: string;
  azureUpstream?: string | null;
  bedrockUpstream?: string | null;
  bedrockRegion?: string | null;
  mode?: string;
  cassette?: string;
  replayTiming?: string;
  expiry?: { maxAge?: string | null; onExpired?: 'warn' | 'error' | 'rerecord' };
  match?: {
    ignorePaths?: string[];
    normalisers?: Normaliser[];
    azureApiVersion?: 'ignore' | 'match';
    onExhausted?: 'error' | 'repeat-last';
    streamAgnostic?: boolean;
  };
  logLevel?: string;
  fileAccess?: 'private' | 'umask';
  limits?: Partial<Record<keyof LimitsConfig, number>>;
  timeouts?: Partial<Record<keyof Config['timeouts'], number>>;
  redact?: {
    headers?: string[];
    bodyPatterns?: { pattern: string; flags?: string; replacement?: string }[];
    builtinPatterns?: boolean;
  };
  cassettes?: { allowRequestOverride?: boolean; maxOpen?: number };
  mocks?: {
    files?: string[];
    active?: string[] | null;
    mode?: 'intercept' | 'override';
    maxHiddenRounds?: number;
    strictTools?: boolean;
    allowTools?: string[];
  };
  mcp?: { servers?: Record<string, string> };
  shadow?: {
    policies?: string | null;
    database?: string;
    queueSize?: number;
    retention?: { maxRows?: number | null; maxAge?: string | null };
  };
  admin?: { token?: string | null; allowedHosts?: string[] };
}
