import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The calltape package folder, found from this module whether it runs from `src/` or `dist/src/`. */
export const packageRoot: string = findRoot(dirname(fileURLToPath(import.meta.url)));

function findRoot(start: string): string {
  for (let folder = start; ; folder = dirname(folder)) {
    if (
      existsSync(join(folder, 'package.json')) &&
      existsSync(join(folder, 'config', 'proxy.config.schema.json'))
    )
      return folder;
    if (dirname(folder) === folder)
      throw new Error(`calltape: cannot find its package folder above ${start}`);
  }
}

/** calltape's version, from its package.json. */
export const packageVersion: string = (
  JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }
).version;
