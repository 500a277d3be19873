/** The proxy's configuration, after defaults, file, environment and flags are merged. */
export interface Config {
  readonly host: string;
  readonly port: number;
  /** Upstream origin, with an optional path prefix and no trailing slash. */
  readonly upstream: string;
  readonly mode: ProxyMode;
  /** Absolute path of the SQLite store. */
  readonly cassette: string;
  readonly logLevel: LogLevel;
  readonly limits: { readonly maxBodyBytes: number };
  readonly timeouts: {
    readonly upstreamConnectMs: number;
    readonly upstreamHeadersMs: number;
    readonly upstreamBodyMs: number;
    readonly keepAliveMs: number;
    readonly shutdownGraceMs: number;
  };
  readonly redact: {
    readonly headers: readonly string[];
    readonly bodyPatterns: readonly BodyPattern[];
  };
}

export type ProxyMode = 'record' | 'passthrough';
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
  mode: 'record',
  cassette: 'recordings/calltape.sqlite',
  logLevel: 'info',
  limits: { maxBodyBytes: 32 * 1024 * 1024 },
  timeouts: {
    upstreamConnectMs: 10_000,
    upstreamHeadersMs: 600_000,
    upstreamBodyMs: 3_600_000,
    keepAliveMs: 75_000,
    shutdownGraceMs: 10_000,
  },
  redact: { headers: [], bodyPatterns: [] },
};

/** A partial configuration as one layer (file, environment, flags) gives it. */
export interface ConfigLayer {
  host?: string;
  port?: number;
  upstream?: string;
  mode?: string;
  cassette?: string;
  logLevel?: string;
  limits?: { maxBodyBytes?: number };
  timeouts?: Partial<Record<keyof Config['timeouts'], number>>;
  redact?: { headers?: string[]; bodyPatterns?: { pattern: string; flags?: string; replacement?: string }[] };
}
