import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { loadSuite } from '../suites/load-suite.js';
import { caseCodeModules, noCodeRefusal, requireModulesInProject } from './case-code-modules.js';

function suiteWith(folder: string): string {
  for (const name of ['suite-judge.mjs', 'case-judge.mjs', 'respond.mjs'])
    writeFileSync(join(folder, name), 'export function judge() {}');
  writeFileSync(join(folder, 'm.yaml'), 'mocks: [{ tool: t, module: ./respond.mjs }]');
  const file = join(folder, 'suite.json');
  writeFileSync(
    file,
    JSON.stringify({
      model: 'm',
      checks: { judge: { code: './suite-judge.mjs' } },
      cases: [
        { test_id: 'plain', prompt: 'hi', expected_tool: null },
        {
          test_id: 'coded',
          prompt: 'hi',
          judge: [{ rubric: 'Polite.' }, { code: './case-judge.mjs' }],
          mocks: ['m.yaml'],
        },
      ],
    }),
  );
  return file;
}

describe('caseCodeModules', () => {
  it("lists the suite's code judges, the case's own and its mock modules, each with where it is named", () => {
    const folder = temporaryFolder();
    const suite = loadSuite(suiteWith(folder), folder);
    const [plain, coded] = suite.cases;
    if (!plain || !coded) throw new Error('two cases expected');
    const file = join(folder, 'suite.json');
    expect(caseCodeModules(suite, plain)).toEqual([
      {
        module: join(folder, 'suite-judge.mjs'),
        where: `${file}: checks.judge.code`,
        namedIn: file,
        kind: 'judge',
      },
    ]);
    expect(caseCodeModules(suite, coded).map((named) => [named.where, named.kind])).toEqual([
      [`${file}: checks.judge.code`, 'judge'],
      [`${file}: case "coded": judge[1].code`, 'judge'],
      [`${join(folder, 'm.yaml')}: mocks[0] (t).module`, 'mock'],
    ]);
  });

  it('keeps the kinds asked for, and says under --no-code which modules a case needed', () => {
    const folder = temporaryFolder();
    const suite = loadSuite(suiteWith(folder), folder);
    const judges = requireModulesInProject(suite, { run: false, outsideProject: false }, ['judge']);
    const [plain, coded] = suite.cases;
    if (!plain || !coded) throw new Error('two cases expected');
    expect(judges.get(coded)?.map((named) => named.kind)).toEqual(['judge', 'judge']);
    expect(noCodeRefusal([])).toBeUndefined();
    expect(noCodeRefusal(judges.get(plain) ?? [])).toBe(
      `--no-code: this case needs code, which was refused: ${join(folder, 'suite-judge.mjs')} (${join(folder, 'suite.json')}: checks.judge.code)`,
    );
  });
});
