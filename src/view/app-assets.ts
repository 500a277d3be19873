import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CalltapeError } from '../errors.js';
import { packageRoot } from '../package-root.js';

/** The built app's files, named by `dist/view/manifest.json` (written by scripts/build-view-app.ts). */
export interface AppManifest {
  /** The bundled script, relative to `dist/view/` (its name carries a content hash). */
  readonly script: string;
  /** The bundled stylesheet, likewise. */
  readonly style: string;
}

/** Where `npm run build` puts the app. */
export const appFolder = join(packageRoot, 'dist', 'view');

let loaded: { manifest: AppManifest; files: Map<string, Buffer> } | undefined;

/**
 * The built app: its manifest and the files it names, read once. Only these files are ever
 * served, so no address can reach any other file. Throws a clear error when the app was not built.
 */
export function appAssets(): { manifest: AppManifest; files: ReadonlyMap<string, Buffer> } {
  if (loaded) return loaded;
  let manifest: AppManifest;
  try {
    manifest = JSON.parse(readFileSync(join(appFolder, 'manifest.json'), 'utf8')) as AppManifest;
  } catch (error) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `calltape view's app is not built (${join(appFolder, 'manifest.json')}: ${(error as Error).message})`,
      'Run npm run build in the calltape checkout.',
    );
  }
  const files = new Map<string, Buffer>();
  for (const name of [manifest.script, manifest.style])
    files.set(name, readFileSync(join(appFolder, name)));
  loaded = { manifest, files };
  return loaded;
}

/** The content type of a built asset, from its extension. */
export function assetType(name: string): string {
  return name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
}
