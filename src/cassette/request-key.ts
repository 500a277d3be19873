import { hash } from 'node:crypto';

/** SHA-256 (hex) of a canonical request's text: the key recordings are looked up by. */
export function requestKey(canonicalText: string): string {
  // One-shot: half the cost of a Hash object for text this short.
  return hash('sha256', canonicalText, 'hex');
}
