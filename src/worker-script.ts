import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CalltapeError } from './errors.js';
import { packageRoot } from './package-root.js';

/**
 * The compiled script of a worker thread, `path` relative to `src/` without extension
 * (`cassette/store-worker`). Workers always run compiled JavaScript: under a TypeScript test
 * runner the copy in dist/ is used. Found from the package folder, not from this module: in the
 * bundled CLI this module sits in dist/src/chunks/.
 */
export function workerScript(path: string): string {
  const compiled = join(packageRoot, `dist/src/${path}.js`);
  if (fileURLToPath(import.meta.url).endsWith('.ts') && !existsSync(compiled))
    throw new CalltapeError(
      'STORE_IO',
      `${compiled} is missing`,
      'Run `npm run build` first (npm test does).',
    );
  return compiled;
}
