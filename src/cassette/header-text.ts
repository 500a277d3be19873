import type { HeaderMap } from './credential-values.js';

/** A header's value as one string (repeated values joined with `, `); undefined when absent. */
export function headerText(headers: HeaderMap | undefined, name: string): string | undefined {
  const value = headers?.[name];
  return typeof value === 'string' ? value : value?.join(', ');
}
