import type { ProviderAdapter } from './provider-adapter.js';

const utf8 = new TextDecoder();

/** A body's bytes as the adapter's text: UTF-8, or a binary string, one character a byte, on a wire with `binaryBodies`. */
export function bodyText(
  adapter: Pick<ProviderAdapter, 'binaryBodies'>,
  bytes: Uint8Array,
): string {
  return adapter.binaryBodies ? Buffer.from(bytes).toString('latin1') : utf8.decode(bytes);
}

/** The bytes of a body the adapter wrote as text: the inverse of `bodyText`. */
export function bodyBytes(adapter: Pick<ProviderAdapter, 'binaryBodies'>, text: string): Buffer {
  return Buffer.from(text, adapter.binaryBodies ? 'latin1' : 'utf8');
}
