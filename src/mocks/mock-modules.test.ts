import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { mockModules } from './mock-modules.js';

describe('mockModules', () => {
  it('lists each module a mock file names, resolved against its folder, with where it is named', () => {
    const folder = temporaryFolder();
    const file = join(folder, 'm.yaml');
    writeFileSync(
      file,
      'mocks: [{ tool: a, result: 1 }, { tool: b, module: ./b.mjs }, { tool: c, module: /abs/c.mjs }]',
    );
    expect(mockModules(file)).toEqual([
      { module: join(folder, 'b.mjs'), where: `${file}: mocks[1] (b).module` },
      { module: '/abs/c.mjs', where: `${file}: mocks[2] (c).module` },
    ]);
  });

  it('names none for a file it cannot read or whose mocks are not a list (loading it says why)', () => {
    const folder = temporaryFolder();
    const write = (name: string, text: string): string => {
      writeFileSync(join(folder, name), text);
      return join(folder, name);
    };
    expect(mockModules(join(folder, 'missing.yaml'))).toEqual([]);
    expect(mockModules(write('bad.json', '{"mocks": ['))).toEqual([]);
    expect(mockModules(write('scalar.yaml', 'mocks: 3'))).toEqual([]);
    expect(
      mockModules(write('odd.yaml', 'mocks: [null, 2, { module: 5 }, { module: ./x.mjs }]')),
    ).toEqual([
      { module: join(folder, 'x.mjs'), where: `${join(folder, 'odd.yaml')}: mocks[3].module` },
    ]);
  });
});
