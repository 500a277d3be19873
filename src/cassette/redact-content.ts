import type { ProviderAdapter } from '../providers/provider-adapter.js';
import type { WireRoute } from '../providers/wire-route.js';
import type { Redactor } from './redact.js';

/**
 * Redacts every string inside plain data (a trace, mocked results): the content as the model
 * produced it, reassembled, so a secret streamed over several events is caught here even though
 * no byte range of the stream holds it. Returns the same instance when nothing changed.
 */
export function redactDeep<T>(value: T, redactor: Redactor): T {
  return redactValue(value, redactor) as T;
}

function redactValue(value: unknown, redactor: Redactor): unknown {
  if (typeof value === 'string') return redactor.text(value);
  // Nothing is copied until something changes: almost every trace comes out as it went in.
  if (Array.isArray(value)) {
    let items: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const next = redactValue(item, redactor);
      if (next !== item) items ??= value.slice(0, index);
      items?.push(next);
    }
    return items ?? value;
  }
  if (typeof value === 'object' && value !== null && !(value instanceof Uint8Array)) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    let entries: [string, unknown][] | undefined;
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      const item = record[key];
      const next = redactValue(item, redactor);
      if (next !== item) entries ??= keys.slice(0, index).map((kept) => [kept, record[kept]]);
      entries?.push([key, next]);
    }
    return entries ? Object.fromEntries(entries) : value;
  }
  return value;
}

/**
 * A stream whose reassembled content needs redaction that its bytes did not get (the secret was
 * split over events): re-expressed through the adapter as one whole answer, redacted there, and
 * turned back into the provider's stream, so the stored bytes replay as the same answer without
 * the secret. Undefined when the adapter cannot re-express it (a cut or errored stream).
 */
export function reexpressStream(
  adapter: ProviderAdapter,
  redactor: Redactor,
  streamText: string,
  route?: WireRoute,
): string | undefined {
  const whole = adapter.convertBody(streamText, { stream: false, includeUsage: true }, route);
  if (!whole) return undefined;
  const stream = adapter.convertBody(
    redactor.text(whole.body),
    { stream: true, includeUsage: true },
    route,
  );
  return stream?.body;
}
