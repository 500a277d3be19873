import { describe, expect, it } from 'vitest';
import { otlpSettings } from './otlp-settings.js';

describe('OTLP settings', () => {
  it('is off without the flag or the OTel variables', () => {
    expect(otlpSettings(undefined, undefined, {})).toBeUndefined();
  });

  it('reads --otlp-endpoint as a base URL, as OTEL_EXPORTER_OTLP_ENDPOINT is read', () => {
    expect(otlpSettings('http://collector:4318', undefined, {})).toEqual({
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      captureContent: false,
    });
    expect(otlpSettings('http://collector:4318/', undefined, {})?.url).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(
      otlpSettings('https://cloud.langfuse.com/api/public/otel/v1/traces', undefined, {})?.url,
    ).toBe('https://cloud.langfuse.com/api/public/otel/v1/traces');
  });

  it('leaves the URL and headers to the SDK when only the OTel variables are set, and honours their protocol and the content opt-in', () => {
    expect(
      otlpSettings(undefined, undefined, {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
      }),
    ).toEqual({ url: undefined, protocol: 'http/json', captureContent: true });
    expect(
      otlpSettings(undefined, true, {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces',
      })?.captureContent,
    ).toBe(true);
  });

  it('refuses what it cannot send, naming the flag or variable', () => {
    expect(() => otlpSettings('collector:4318 x', undefined, {})).toThrow(/--otlp-endpoint/);
    expect(() => otlpSettings('ftp://collector', undefined, {})).toThrow(/not an http\(s\) URL/);
    expect(() =>
      otlpSettings(undefined, undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'nope' }),
    ).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(() =>
      otlpSettings('http://collector:4317', undefined, { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported/);
  });
});
