import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CalltapeError } from '../errors.js';
import type { JsonValue } from '../trace/trace.js';

export type UserNormaliser = (value: JsonValue) => JsonValue;

/**
 * Loads user normalisers from module files: every exported function becomes a normaliser under
 * its export name (`export function sku(value) {…}` → rules say `"normalise": ["sku"]`). A module
 * that cannot be loaded, or exports no function, is a configuration error naming the file.
 */
export async function loadNormalisers(
  modules: readonly string[],
  cwd: string,
): Promise<Record<string, UserNormaliser>> {
  const normalisers: Record<string, UserNormaliser> = {};
  for (const module of modules) {
    const path = resolve(cwd, module);
    let exported: Record<string, unknown>;
    try {
      exported = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    } catch (error) {
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${path}: cannot load the normaliser module: ${(error as Error).message}`,
      );
    }
    const functions = Object.entries(exported).filter(
      (entry): entry is [string, UserNormaliser] => typeof entry[1] === 'function',
    );
    if (functions.length === 0)
      throw new CalltapeError('CONFIG_INVALID', `${path}: exports no normaliser function`);
    for (const [exportName, normaliser] of functions) {
      // A default export is named after its file (skus.mjs → "skus").
      const name = exportName === 'default' ? moduleName(path) : exportName;
      if (name in normalisers)
        throw new CalltapeError(
          'CONFIG_INVALID',
          `${path}: normaliser "${name}" is already defined by another module`,
        );
      normalisers[name] = normaliser;
    }
  }
  return normalisers;
}

function moduleName(path: string): string {
  return (path.split('/').pop() ?? path).replace(/\.[cm]?js$/, '');
}
