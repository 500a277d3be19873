/**
 * Part of `npm run build`, after tsc: bundles the CLI (src/cli/main.ts) and the worker threads'
 * scripts with their dependencies into dist/src, over tsc's copies of those files, with the
 * modules they share in dist/src/chunks/. Loading some 200 calltape modules and the CommonJS files
 * of ajv, secretlint and the rest one by one was most of a command's start-up (issue 37); a
 * command's own module stays behind a dynamic import, so it is still loaded only when named.
 * The library entry points (dist/src/index.js, runner-api.js) stay tsc's unbundled modules.
 */
import { chmodSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { packageRoot } from '../src/package-root.js';

/** The scripts run as a process or a worker thread, relative to src/ (worker-script.ts names them so). */
const entries = [
  'cli/main',
  'cassette/store-worker',
  'user-code/user-code-worker',
  'live/shadow-worker',
  'live/otel-worker',
  'runner/module-agent-worker',
  'stores/postgres-database-worker',
];

// Chunk names change with their content: the last build's would stay beside the new ones (and
// in the package) if not removed.
rmSync(join(packageRoot, 'dist/src/chunks'), { recursive: true, force: true });
await build({
  entryPoints: entries.map((entry) => join(packageRoot, 'src', `${entry}.ts`)),
  absWorkingDir: packageRoot,
  outbase: join(packageRoot, 'src'),
  outdir: join(packageRoot, 'dist/src'),
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  // A native addon: its loader finds the compiled .node file beside its own package.
  external: ['better-sqlite3'],
  // CommonJS dependencies bundled into ES modules still call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as calltapeCreateRequire } from 'node:module'; const require = calltapeCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
chmodSync(join(packageRoot, 'dist/src/cli/main.js'), 0o755);
