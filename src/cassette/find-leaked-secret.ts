import { Buffer } from 'node:buffer';
import { decodeContent } from './decode-content.js';
import { headerText } from './header-text.js';
import type { RecordedExchange } from './recorded-exchange.js';

/** Shorter values are never checked: they are not redacted everywhere either (`withSecrets`). */
const minSecretLength = 8;

/**
 * The first credential the agent sent that is still present in what would be stored, named by
 * where it was found; undefined when the exchange is clean. Redaction rules that miss a key make
 * the store refuse the write rather than keep the secret.
 *
 * Every place is searched as it is stored, by a means independent of the redaction it checks:
 * bytes are searched as bytes (no decoding them to text first), and the trace and headers string
 * by string, keys and numbers included (no serialising them first), which finds a secret
 * wherever their JSON text would show it.
 */
export function findLeakedSecret(
  exchange: RecordedExchange,
  secrets: readonly string[],
): string | undefined {
  const candidates = secrets.filter((secret) => secret.length >= minSecretLength);
  if (candidates.length === 0) return undefined;
  const inText = (text: string): boolean => {
    for (const secret of candidates) if (text.includes(secret)) return true;
    return false;
  };
  const inBytes = bytesSearch(candidates, inText);
  const { interaction, request, response, agentView, match } = exchange;
  if (inText(interaction.path)) return 'request path';
  if (holdsText(request.headers, inText)) return 'request headers';
  if (inBytes(request.body)) return 'request body';
  if (match && inText(match.canonical)) return 'canonical request';
  if (response && holdsText(response.headers, inText)) return 'response headers';
  if (
    response &&
    inBytes(decodeContent(response.body, headerText(response.headers, 'content-encoding')).bytes)
  )
    return 'response body';
  if (agentView && [agentView.request, agentView.response].some((bytes) => bytes && inBytes(bytes)))
    return 'agent view';
  if (holdsText(interaction, inText)) return 'trace';
  return undefined;
}

/**
 * A search of bytes for the secrets. An ASCII secret is in the UTF-8 decoding of some bytes
 * exactly when its bytes are in them (a decoder never makes an ASCII character out of other
 * bytes, nor swallows one), so those are searched natively; any other secret, in the decoded text.
 */
function bytesSearch(
  secrets: readonly string[],
  inText: (text: string) => boolean,
): (bytes: Uint8Array) => boolean {
  // eslint-disable-next-line no-control-regex -- the ASCII range, control characters included
  if (!secrets.every((secret) => /^[\u0000-\u007f]*$/.test(secret))) {
    const decoder = new TextDecoder();
    return (bytes) => inText(decoder.decode(bytes));
  }
  const needles = secrets.map((secret) => Buffer.from(secret, 'latin1'));
  return (bytes) => {
    const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return needles.some((needle) => haystack.includes(needle));
  };
}

/**
 * Whether a string, key or number anywhere in plain data holds one of the secrets (those
 * shorter than the redacted minimum are not looked for), searched string by string rather than
 * serialised first.
 */
export function dataHoldsSecret(value: unknown, secrets: Iterable<string>): boolean {
  const candidates = [...secrets].filter((secret) => secret.length >= minSecretLength);
  if (candidates.length === 0) return false;
  return holdsText(value, (text) => candidates.some((secret) => text.includes(secret)));
}

/** Whether a string, key or number anywhere in plain data holds a secret. */
function holdsText(value: unknown, inText: (text: string) => boolean): boolean {
  if (typeof value === 'string') return value.length >= minSecretLength && inText(value);
  if (typeof value === 'number') return inText(String(value));
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return false;
  if (Array.isArray(value)) {
    for (const item of value as readonly unknown[]) if (holdsText(item, inText)) return true;
    return false;
  }
  const record = value as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(record))
    if ((key.length >= minSecretLength && inText(key)) || holdsText(record[key], inText))
      return true;
  return false;
}
