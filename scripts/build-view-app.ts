/**
 * Part of `npm run build`: bundles calltape view's browser app (src/view/app/) into
 * dist/view/assets/ with content-hashed names, and writes dist/view/manifest.json naming them
 * (src/view/app-assets.ts reads it). esbuild: one pinned binary, well under a second here.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { packageRoot } from '../src/package-root.js';
import type { AppManifest } from '../src/view/app-assets.js';

const out = join(packageRoot, 'dist', 'view');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const result = await build({
  entryPoints: [join(packageRoot, 'src/view/app/main.tsx')],
  tsconfig: join(packageRoot, 'src/view/app/tsconfig.json'),
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: join(out, 'assets'),
  entryNames: '[name]-[hash]',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});
const outputs = Object.keys(result.metafile.outputs).map((file) =>
  relative(out, join(packageRoot, file)).split('\\').join('/'),
);
const pick = (suffix: string): string => {
  const file = outputs.find((name) => name.endsWith(suffix));
  if (file === undefined) throw new Error(`calltape: the app bundle has no ${suffix} file`);
  return file;
};
const manifest: AppManifest = { script: pick('.js'), style: pick('.css') };
writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
