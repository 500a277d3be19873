import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CalltapeError } from './errors.js';
import { packageRoot } from './package-root.js';

/**
 * The compiled script of a worker thread, `path` relative to `src/` without extension
 * (`cassette/store-worker`). Workers always run compiled JavaScript: under a TypeScript test
 * runner the copy in dist/ is used.
 */
export function workerScript(path: string): URL | string {
  if (!fileURLToPath(import.meta.url).endsWith('.ts'))
    return new URL(`./${path}.js`, import.meta.url);
  const compiled = join(packageRoot, `dist/src/${path}.js`);
  if (!existsSync(compiled))
    throw new CalltapeError(
      'STORE_IO',
      `${compiled} is missing`,
      'Run `npm run build` first (npm test does).',
    );
  return compiled;
}
