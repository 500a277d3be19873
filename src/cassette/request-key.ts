import { createHash } from 'node:crypto';

/** SHA-256 (hex) of a canonical request's text: the key recordings are looked up by. */
export function requestKey(canonicalText: string): string {
  return createHash('sha256').update(canonicalText).digest('hex');
}
