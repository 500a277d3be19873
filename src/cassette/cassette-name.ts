import { join } from 'node:path';

/** Cassette names: letters, digits, `.`, `_`, `-`, not starting with `.`; they can never leave their folder. */
export function isValidCassetteName(name: string): boolean {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/.test(name);
}

/** A name's file in a recordings folder (the name must be valid). */
export function cassettePath(folder: string, name: string): string {
  return join(folder, `${name}.sqlite`);
}
