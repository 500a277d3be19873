import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { outsideProject, parseDetail, readFailure } from './project-file.js';

describe('outsideProject', () => {
  const root = temporaryFolder();
  const elsewhere = temporaryFolder();
  mkdirSync(join(root, 'sub'));
  writeFileSync(join(root, 'sub', 'a.yaml'), '');
  writeFileSync(join(elsewhere, 'secret'), '');

  it('tells files in the project from files outside it', () => {
    expect(outsideProject(join(root, 'sub', 'a.yaml'), root)).toBe(false);
    expect(outsideProject(join(root, 'missing.yaml'), root)).toBe(false);
    expect(outsideProject(join(elsewhere, 'secret'), root)).toBe(true);
    expect(outsideProject(join(root, '..', 'x'), root)).toBe(true);
  });

  it('is not fooled by a sibling folder whose name starts with the project’s', () => {
    expect(outsideProject(`${root}-other/file`, root)).toBe(true);
  });

  it('follows symbolic links out of the project', () => {
    symlinkSync(join(elsewhere, 'secret'), join(root, 'link'));
    expect(outsideProject(join(root, 'link'), root)).toBe(true);
  });
});

describe('readFailure and parseDetail', () => {
  const root = temporaryFolder();
  const outside = join(temporaryFolder(), 'f.json');
  const error = new SyntaxError('Unexpected token \'n\', "npm_secret" is not valid JSON');

  it('keep the parser message inside the project', () => {
    expect(readFailure(error, join(root, 'f.json'), root)).toContain('npm_secret');
    expect(parseDetail(error, join(root, 'f.json'), root)).toContain('npm_secret');
  });

  it('quote nothing of a file outside it', () => {
    expect(readFailure(error, outside, root)).not.toContain('npm_secret');
    expect(readFailure(error, outside, root)).toContain('not valid JSON');
    expect(parseDetail(error, outside, root)).not.toContain('npm_secret');
  });
});
