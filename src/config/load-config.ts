import { existsSync, readFileSync } from 'node:fs';
import { isPostgresUrl } from '../database-url.js';
import { dirname, resolve } from 'node:path';
import { CalltapeError } from '../errors.js';
import {
  defaultConfig,
  type Config,
  type ConfigLayer,
  type LogLevel,
  type ProxyMode,
} from './config.js';
import { validateConfigLayer } from './validate-config-layer.js';
import { useFileAccess } from '../private-files.js';
import { outsideProject, parseDetail } from './project-file.js';

/** Flag values as the CLI received them (strings; validated here like every other layer). */
export interface ConfigFlags {
  readonly config?: string | undefined;
  readonly host?: string | undefined;
  readonly port?: string | undefined;
  readonly upstream?: string | undefined;
  readonly anthropicUpstream?: string | undefined;
  readonly geminiUpstream?: string | undefined;
  readonly vertexUpstream?: string | undefined;
  readonly ollamaUpstream?: string | undefined;
  readonly azureUpstream?: string | undefined;
  readonly bedrockUpstream?: string | undefined;
  readonly bedrockRegion?: string | undefined;
  readonly mode?: string | undefined;
  readonly cassette?: string | undefined;
  readonly logLevel?: string | undefined;
  readonly replayTiming?: string | undefined;
  /** Comma-separated mock files. */
  readonly mocks?: string | undefined;
  readonly strictTools?: boolean | undefined;
  readonly policies?: string | undefined;
  readonly shadowDb?: string | undefined;
  readonly adminToken?: string | undefined;
}

export interface LoadedConfig {
  readonly config: Config;
  /** The configuration file used, if any. */
  readonly file: string | undefined;
}

/** The environment variable that sets each field, by JSON pointer (the configuration reference lists them too). */
export const envNames: Readonly<Record<string, string>> = {
  '/host': 'CALLTAPE_HOST',
  '/port': 'CALLTAPE_PORT',
  '/upstream': 'CALLTAPE_UPSTREAM',
  '/anthropicUpstream': 'CALLTAPE_ANTHROPIC_UPSTREAM',
  '/geminiUpstream': 'CALLTAPE_GEMINI_UPSTREAM',
  '/vertexUpstream': 'CALLTAPE_VERTEX_UPSTREAM',
  '/ollamaUpstream': 'CALLTAPE_OLLAMA_UPSTREAM',
  '/azureUpstream': 'CALLTAPE_AZURE_UPSTREAM',
  '/bedrockUpstream': 'CALLTAPE_BEDROCK_UPSTREAM',
  '/bedrockRegion': 'CALLTAPE_BEDROCK_REGION',
  '/mode': 'CALLTAPE_MODE',
  '/cassette': 'CALLTAPE_CASSETTE',
  '/logLevel': 'CALLTAPE_LOG_LEVEL',
  '/fileAccess': 'CALLTAPE_FILE_ACCESS',
  '/replayTiming': 'CALLTAPE_REPLAY_TIMING',
  '/limits/maxBodyBytes': 'CALLTAPE_MAX_BODY_BYTES',
  '/mocks/files': 'CALLTAPE_MOCKS',
  '/mocks/strictTools': 'CALLTAPE_STRICT_TOOLS',
  '/shadow/policies': 'CALLTAPE_POLICIES',
  '/shadow/database': 'CALLTAPE_SHADOW_DB',
  '/admin/token': 'CALLTAPE_ADMIN_TOKEN',
};

const flagNames: Record<string, string> = {
  '/host': '--host',
  '/port': '--port',
  '/upstream': '--upstream',
  '/anthropicUpstream': '--anthropic-upstream',
  '/geminiUpstream': '--gemini-upstream',
  '/vertexUpstream': '--vertex-upstream',
  '/ollamaUpstream': '--ollama-upstream',
  '/azureUpstream': '--azure-upstream',
  '/bedrockUpstream': '--bedrock-upstream',
  '/bedrockRegion': '--bedrock-region',
  '/mode': '--mode',
  '/cassette': '--cassette',
  '/logLevel': '--log-level',
  '/replayTiming': '--replay-timing',
  '/mocks/files': '--mocks',
  '/mocks/strictTools': '--strict-tools',
  '/shadow/policies': '--policies',
  '/shadow/database': '--shadow-db',
  '/admin/token': '--admin-token',
};

/**
 * Builds the configuration: flags > environment (CALLTAPE_*) > file > defaults. The file is
 * `--config`, else CALLTAPE_CONFIG, else ./proxy.config.json when present. Every layer is
 * validated against the schema; errors name the file or variable, the field and what was expected.
 */
export function loadConfig(
  flags: ConfigFlags,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): LoadedConfig {
  const explicit = flags.config ?? env['CALLTAPE_CONFIG'];
  const file =
    explicit !== undefined
      ? resolve(cwd, explicit)
      : existsSync(resolve(cwd, 'proxy.config.json'))
        ? resolve(cwd, 'proxy.config.json')
        : undefined;
  const fileLayer = file
    ? validateConfigLayer(readConfigFile(file, cwd), file, undefined, !outsideProject(file, cwd))
    : {};
  const envLayer = validateConfigLayer(
    layerFrom({
      host: env['CALLTAPE_HOST'],
      port: env['CALLTAPE_PORT'],
      upstream: env['CALLTAPE_UPSTREAM'],
      anthropicUpstream: env['CALLTAPE_ANTHROPIC_UPSTREAM'],
      geminiUpstream: env['CALLTAPE_GEMINI_UPSTREAM'],
      vertexUpstream: env['CALLTAPE_VERTEX_UPSTREAM'],
      ollamaUpstream: env['CALLTAPE_OLLAMA_UPSTREAM'],
      azureUpstream: env['CALLTAPE_AZURE_UPSTREAM'],
      bedrockUpstream: env['CALLTAPE_BEDROCK_UPSTREAM'],
      bedrockRegion: env['CALLTAPE_BEDROCK_REGION'],
      mode: env['CALLTAPE_MODE'],
      cassette: env['CALLTAPE_CASSETTE'],
      logLevel: env['CALLTAPE_LOG_LEVEL'],
      fileAccess: env['CALLTAPE_FILE_ACCESS'],
      replayTiming: env['CALLTAPE_REPLAY_TIMING'],
      maxBodyBytes: env['CALLTAPE_MAX_BODY_BYTES'],
      mocks: env['CALLTAPE_MOCKS'],
      strictTools: env['CALLTAPE_STRICT_TOOLS'],
      policies: env['CALLTAPE_POLICIES'],
      shadowDb: env['CALLTAPE_SHADOW_DB'],
      adminToken: env['CALLTAPE_ADMIN_TOKEN'],
    }),
    'environment',
    (pointer) => envNames[pointer] ?? pointer,
  );
  const flagLayer = validateConfigLayer(
    layerFrom({
      ...flags,
      maxBodyBytes: undefined,
      strictTools: flags.strictTools === undefined ? undefined : String(flags.strictTools),
    }),
    'command line',
    (pointer) => flagNames[pointer] ?? pointer,
  );

  const merged = [fileLayer, envLayer, flagLayer].reduce<ConfigLayer>(mergeLayers, {});
  // Paths from the file resolve against its folder; from a flag or variable, against the working folder.
  const baseFor = (fromFlagOrEnv: boolean, inFile: boolean): string =>
    fromFlagOrEnv || !file || !inFile ? cwd : dirname(file);
  const mocksBase = baseFor(
    flagLayer.mocks?.files !== undefined || envLayer.mocks?.files !== undefined,
    fileLayer.mocks?.files !== undefined,
  );
  const policiesBase = baseFor(
    flagLayer.shadow?.policies !== undefined || envLayer.shadow?.policies !== undefined,
    fileLayer.shadow?.policies !== undefined,
  );
  const databaseBase = baseFor(
    flagLayer.shadow?.database !== undefined || envLayer.shadow?.database !== undefined,
    fileLayer.shadow?.database !== undefined,
  );
  const cassetteBase = baseFor(
    flagLayer.cassette !== undefined || envLayer.cassette !== undefined,
    fileLayer.cassette !== undefined,
  );
  const d = defaultConfig;
  // Every file the command goes on to create follows it, in worker threads too (they inherit the environment).
  useFileAccess(merged.fileAccess ?? d.fileAccess);
  return {
    file,
    config: {
      host: merged.host ?? d.host,
      port: merged.port ?? d.port,
      upstream: providerOrigin(merged.upstream ?? d.upstream),
      anthropicUpstream: providerOrigin(merged.anthropicUpstream ?? d.anthropicUpstream),
      geminiUpstream: providerOrigin(merged.geminiUpstream ?? d.geminiUpstream),
      vertexUpstream: nullableOrigin(merged.vertexUpstream ?? d.vertexUpstream, providerOrigin),
      ollamaUpstream: providerOrigin(
        merged.ollamaUpstream ?? ollamaHostOrigin(env['OLLAMA_HOST']) ?? d.ollamaUpstream,
      ),
      azureUpstream: nullableOrigin(
        merged.azureUpstream ?? httpUrl(env['AZURE_OPENAI_ENDPOINT']) ?? d.azureUpstream,
        azureOrigin,
      ),
      bedrockUpstream: nullableOrigin(merged.bedrockUpstream ?? d.bedrockUpstream, providerOrigin),
      bedrockRegion:
        merged.bedrockRegion ??
        awsRegion(env['AWS_REGION']) ??
        awsRegion(env['AWS_DEFAULT_REGION']) ??
        d.bedrockRegion,
      mode: (merged.mode ?? d.mode) as ProxyMode,
      cassette: resolve(cassetteBase, merged.cassette ?? d.cassette),
      logLevel: (merged.logLevel ?? d.logLevel) as LogLevel,
      fileAccess: merged.fileAccess ?? d.fileAccess,
      replayTiming: merged.replayTiming ?? d.replayTiming,
      expiry: { ...d.expiry, ...merged.expiry },
      match: { ...d.match, ...merged.match },
      limits: { ...d.limits, ...merged.limits },
      timeouts: { ...d.timeouts, ...merged.timeouts },
      redact: {
        headers: merged.redact?.headers ?? d.redact.headers,
        bodyPatterns: (merged.redact?.bodyPatterns ?? d.redact.bodyPatterns).map((pattern) => ({
          pattern: pattern.pattern,
          flags: pattern.flags ?? '',
          replacement: pattern.replacement ?? '[REDACTED]',
        })),
        builtinPatterns: merged.redact?.builtinPatterns ?? d.redact.builtinPatterns,
      },
      cassettes: { ...d.cassettes, ...merged.cassettes },
      mocks: {
        ...d.mocks,
        ...merged.mocks,
        files: (merged.mocks?.files ?? d.mocks.files).map((path) => resolve(mocksBase, path)),
      },
      mcp: { servers: { ...d.mcp.servers, ...merged.mcp?.servers } },
      shadow: {
        policies: merged.shadow?.policies ? resolve(policiesBase, merged.shadow.policies) : null,
        database: resolveDatabaseFrom(databaseBase, merged.shadow?.database ?? d.shadow.database),
        queueSize: merged.shadow?.queueSize ?? d.shadow.queueSize,
        retention: { ...d.shadow.retention, ...merged.shadow?.retention },
      },
      admin: {
        token: merged.admin?.token ?? d.admin.token,
        allowedHosts: merged.admin?.allowedHosts ?? d.admin.allowedHosts,
      },
    },
  };
}

function readConfigFile(file: string, cwd: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${file}: cannot read the configuration file (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      'Pass an existing file with --config or CALLTAPE_CONFIG.',
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${file}: not valid JSON: ${parseDetail(error, file, cwd)}`,
    );
  }
}

/** Turns string values into a layer, numbers parsed where they look numeric (the schema judges the rest). */
function layerFrom(values: Record<string, string | undefined>): Record<string, unknown> {
  const layer: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || key === 'config') continue;
    const typed =
      /^-?\d+$/.test(value) && (key === 'port' || key === 'maxBodyBytes') ? Number(value) : value;
    if (key === 'maxBodyBytes') layer['limits'] = { maxBodyBytes: typed };
    else if (key === 'mocks')
      layer['mocks'] = {
        ...(layer['mocks'] as object | undefined),
        files: value
          .split(',')
          .map((file) => file.trim())
          .filter(Boolean),
      };
    else if (key === 'policies')
      layer['shadow'] = { ...(layer['shadow'] as object | undefined), policies: value };
    else if (key === 'shadowDb')
      layer['shadow'] = { ...(layer['shadow'] as object | undefined), database: value };
    else if (key === 'adminToken') layer['admin'] = { token: value };
    else if (key === 'strictTools')
      layer['mocks'] = {
        ...(layer['mocks'] as object | undefined),
        strictTools:
          value === 'true' || value === '1'
            ? true
            : value === 'false' || value === '0'
              ? false
              : value,
      };
    else layer[key] = typed;
  }
  return layer;
}

function mergeLayers(base: ConfigLayer, next: ConfigLayer): ConfigLayer {
  return {
    ...base,
    ...next,
    limits: { ...base.limits, ...next.limits },
    match: { ...base.match, ...next.match },
    expiry: { ...base.expiry, ...next.expiry },
    timeouts: { ...base.timeouts, ...next.timeouts },
    redact: { ...base.redact, ...next.redact },
    mocks: { ...base.mocks, ...next.mocks },
    mcp: { servers: { ...base.mcp?.servers, ...next.mcp?.servers } },
    shadow: {
      ...base.shadow,
      ...next.shadow,
      retention: { ...base.shadow?.retention, ...next.shadow?.retention },
    },
    cassettes: { ...base.cassettes, ...next.cassettes },
    admin: { ...base.admin, ...next.admin },
  };
}

/**
 * A provider upstream as requests are joined to it: without trailing slashes, and without a
 * trailing `/v1`, which every agent path already starts with. The SDKs' base URLs end in `/v1`,
 * so that is what people paste; kept, it sent `/v1/v1/chat/completions` upstream and recorded
 * the 404 as the answer.
 */
/**
 * The server `OLLAMA_HOST` names, read as the `ollama` client reads it: `host`, `host:port`,
 * `:port` or a URL; without a scheme, http and port 11434. Undefined when unset or unusable.
 */
export function ollamaHostOrigin(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  let host = value.trim();
  const explicit = host.includes('://');
  if (host.startsWith(':')) host = `http://127.0.0.1${host}`;
  else if (!explicit) host = `http://${host}`;
  if (!URL.canParse(host)) return undefined;
  const url = new URL(host);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.port === '' && !explicit && !value.trim().startsWith(':')) url.port = '11434';
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** A variable's value when it is an http(s) URL; another text is no upstream. */
function httpUrl(value: string | undefined): string | undefined {
  return value !== undefined && /^https?:\/\//i.test(value) && URL.canParse(value)
    ? value
    : undefined;
}

/** An optional upstream (null: none configured), made an origin by `origin`. */
function nullableOrigin(url: string | null, origin: (url: string) => string): string | null {
  return url === null ? null : origin(url);
}

/**
 * An Azure OpenAI endpoint as requests are joined to it: agents' paths start with `/openai/`,
 * so a pasted `https://res.openai.azure.com/openai/v1` (the v1 API's base URL) or `…/openai`
 * loses that tail, as `providerOrigin` drops `/v1`.
 */
function azureOrigin(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  if (!URL.canParse(trimmed)) return trimmed;
  const tail = /\/openai(?:\/v1)?$/i.exec(new URL(trimmed).pathname);
  return tail ? trimmed.slice(0, -tail[0].length) : trimmed;
}

function providerOrigin(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  // On the path only: a host could be called v1.
  if (!URL.canParse(trimmed) || !/\/v1$/i.test(new URL(trimmed).pathname)) return trimmed;
  return trimmed.slice(0, -'/v1'.length);
}

/** An AWS region named by the environment calltape was started with; undefined when unset or not a region name. */
function awsRegion(value: string | undefined): string | undefined {
  return value !== undefined && /^[a-z]{2}(?:-[a-z]+)+-\d{1,2}$/.test(value) ? value : undefined;
}

/** A database location from a folder: a file resolved against it, a `postgres://` URL as it is. */
function resolveDatabaseFrom(base: string, location: string): string {
  return isPostgresUrl(location) ? location : resolve(base, location);
}
