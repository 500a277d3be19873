import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageRoot } from '../../src/package-root.js';

/**
 * Writes an ES module loader hook into `folder` that notes every module URL a process loads into
 * the file named by its LOADED_MODULES_FILE variable (calltape is all ESM); returns the Node
 * arguments that install it.
 */
export function loadedModulesHook(folder: string): string[] {
  writeFileSync(
    join(folder, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.LOADED_MODULES_FILE, url + '\\n');
  return next(url, context);
}
`,
  );
  writeFileSync(
    join(folder, 'register.mjs'),
    `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`,
  );
  return ['--import', pathToFileURL(join(folder, 'register.mjs')).href];
}

/** The URLs the hook noted in `file`, one per file loaded. */
export const filesLoaded = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '');

/**
 * The modules in the files the hook noted in `file`, named as tsc would emit them
 * (`src/proxy/x.js`, `node_modules/ws/wrapper.mjs`): the CLI and its chunks are bundles
 * (scripts/bundle-cli.ts), so the modules in a file of dist/ are read from its source map.
 */
export const modulesLoaded = (file: string): string[] =>
  filesLoaded(file).flatMap((url) =>
    url.includes('/dist/') ? modulesIn(url) : [url.slice(url.indexOf('node_modules/'))],
  );

function modulesIn(url: string): string[] {
  const path = fileURLToPath(url);
  const map = JSON.parse(readFileSync(`${path}.map`, 'utf8')) as { sources: string[] };
  return map.sources.map((source) => {
    const absolute = resolve(dirname(path), source);
    const inModules = absolute.lastIndexOf('node_modules/');
    return inModules >= 0
      ? absolute.slice(inModules)
      : relative(packageRoot, absolute).replace(/\.ts$/, '.js');
  });
}
