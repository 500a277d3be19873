import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { readJsonFile } from './read-json-file.js';

describe('readJsonFile', () => {
  const folder = temporaryFolder();

  it('parses the file, and names the file and what it was read as when it cannot', () => {
    const good = join(folder, 'tools.json');
    writeFileSync(good, '[{"name":"get_weather"}]');
    expect(readJsonFile(good, 'the tools')).toEqual([{ name: 'get_weather' }]);

    const broken = join(folder, 'broken.json');
    writeFileSync(broken, '{"runs": [');
    expect(() => readJsonFile(broken, 'the baseline report')).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(
          /broken\.json: cannot read the baseline report: not valid JSON: /,
        ) as string,
      }),
    );
    expect(() => readJsonFile(join(folder, 'absent.json'), 'the shard blob')).toThrow(
      /absent\.json: cannot read the shard blob: ENOENT$/,
    );
  });
});

describe('readJsonFile outside the project', () => {
  it('names the fault without quoting the file', () => {
    const path = join(temporaryFolder(), 'token.json');
    writeFileSync(path, 'npm_Xy7Kq2Lm9Pz4Rt8Vw1Bn5Cd3Fg6Hj0Ks2Qa');
    expect(() => readJsonFile(path, 'the tools', temporaryFolder())).toThrow(
      /token\.json: cannot read the tools: not valid JSON: content not shown/,
    );
    expect(() => readJsonFile(path, 'the tools', temporaryFolder())).not.toThrow(/npm_/);
  });
});
