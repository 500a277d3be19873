import { printableUrl } from '../cassette/printable-url.js';
import { CalltapeError } from '../errors.js';

/** Where spans go and what goes with them, from `--otlp-endpoint` or the OTel SDK's own variables. */
export interface OtlpSettings {
  /**
   * The OTLP/HTTP traces URL. Undefined: the SDK reads `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or
   * `OTEL_EXPORTER_OTLP_ENDPOINT` (plus `/v1/traces`) itself, as every OTel SDK does.
   */
  readonly url: string | undefined;
  /** `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL`: `http/protobuf` (the OTel default) or `http/json`. */
  readonly protocol: 'http/protobuf' | 'http/json';
  /** Opted in to the convention's content attributes (messages, tool arguments and results, definitions). */
  readonly captureContent: boolean;
}

/** The CLI flags behind the settings (commander's camel case). */
export interface OtlpFlags {
  readonly otlpEndpoint?: string;
  readonly otlpCaptureContent?: boolean;
}

/** Env variables the settings read (the OTel SDK's names). */
type OtelEnv = Readonly<Record<string, string | undefined>>;

/**
 * The export settings, or undefined when neither the flag nor the OTel variables ask for export.
 * `--otlp-endpoint` is a base URL like `OTEL_EXPORTER_OTLP_ENDPOINT`: `/v1/traces` is appended
 * unless the URL already ends in it.
 */
export function otlpSettings(
  flag: string | undefined,
  captureFlag: boolean | undefined,
  env: OtelEnv,
): OtlpSettings | undefined {
  const captureContent =
    captureFlag === true ||
    /^true$/i.test(env['OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT'] ?? '');
  const fromEnv = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] ?? env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  if (flag === undefined && (fromEnv === undefined || fromEnv === '')) return undefined;
  const protocol =
    env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] ??
    env['OTEL_EXPORTER_OTLP_PROTOCOL'] ??
    'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json')
    throw new CalltapeError(
      'CONFIG_INVALID',
      `OTEL_EXPORTER_OTLP_PROTOCOL: "${protocol}" is not supported`,
      'calltape exports OTLP over HTTP: use http/protobuf (the default) or http/json.',
    );
  if (flag !== undefined) return { url: tracesUrl(flag), protocol, captureContent };
  tracesUrl(fromEnv ?? '', 'OTEL_EXPORTER_OTLP_ENDPOINT');
  return { url: undefined, protocol, captureContent };
}

function tracesUrl(base: string, source = '--otlp-endpoint'): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${source}: "${printableUrl(base)}" is not a URL`,
      "Give the collector's OTLP/HTTP base URL, e.g. http://localhost:4318",
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${source}: "${printableUrl(base)}" is not an http(s) URL (calltape exports OTLP over HTTP)`,
    );
  if (source !== '--otlp-endpoint') return base;
  return url.pathname.endsWith('/v1/traces') ? base : `${base.replace(/\/+$/, '')}/v1/traces`;
}
