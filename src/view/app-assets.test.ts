import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { appAssets } from './app-assets.js';

describe('calltape view app bundle', () => {
  it('ships under 300 KB gzipped (script and stylesheet, as built by npm run build)', () => {
    const { files } = appAssets();
    const gzipped = [...files.values()].reduce((sum, file) => sum + gzipSync(file).length, 0);
    expect(files.size).toBe(2);
    expect(gzipped).toBeLessThan(300 * 1024);
  });
});
