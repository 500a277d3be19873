import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nearestFile } from './nearest-file.js';

describe('nearestFile', () => {
  const folder = mkdtempSync(join(tmpdir(), 'calltape-nearest-'));
  for (const name of ['calltape.yaml', 'example.sqlite', 'bank-demo.sqlite', 'notes.txt'])
    writeFileSync(join(folder, name), '');

  it('suggests the suite a mistyped extension or name stands for', () => {
    expect(nearestFile(join(folder, 'calltape.yml'), ['.yaml', '.yml', '.json'])).toBe(
      join(folder, 'calltape.yaml'),
    );
    expect(nearestFile(join(folder, 'calltpe.yaml'), ['.yaml', '.yml', '.json'])).toBe(
      join(folder, 'calltape.yaml'),
    );
  });

  it('suggests only files with the given extensions, and only when the name is close', () => {
    expect(nearestFile(join(folder, 'exampel.sqlite'), ['.sqlite'])).toBe(
      join(folder, 'example.sqlite'),
    );
    expect(nearestFile(join(folder, 'notes.sqlite'), ['.sqlite'])).toBeUndefined();
    expect(nearestFile(join(folder, 'something-else.yaml'), ['.yaml'])).toBeUndefined();
    expect(nearestFile(join(folder, 'missing', 'x.yaml'), ['.yaml'])).toBeUndefined();
  });
});

describe('a suite that does not exist', () => {
  it('is a config error whose hint names the suite a typo stands for', async () => {
    const { loadSuite } = await import('./suites/load-suite.js');
    const folder = mkdtempSync(join(tmpdir(), 'calltape-suite-typo-'));
    writeFileSync(join(folder, 'calltape.yaml'), 'cases: []\n');
    expect(() => loadSuite('calltape.yml', folder)).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        hint: expect.stringContaining('calltape.yaml'),
      }),
    );
  });
});
