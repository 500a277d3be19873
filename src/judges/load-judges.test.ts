import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../package-root.js';
import { renderGuidelines } from '../guidelines/render-guidelines.js';
import { loadGuidelines } from '../guidelines/load-guidelines.js';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { loadJudges } from './load-judges.js';

const folder = temporaryFolder();
const write = (name: string, text: string): string => {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
};

describe('loadJudges', () => {
  it('reads the bundled judges with their defaults and the guidelines file', () => {
    const judges = loadJudges('examples/bank/judges/judges.yaml', packageRoot);
    expect(judges.map((judge) => [judge.name, judge.kind])).toEqual([
      ['rubric-mini', 'llm'],
      ['desired-behaviour', 'llm'],
      ['suite-checks', 'check'],
    ]);
    expect(judges[1]).toMatchObject({
      provider: 'anthropic',
      samples: 1,
      aggregate: 'majority',
      temperature: 0,
      confirmOnFail: true,
      prompt: { kind: 'desired_behaviour' },
    });
  });

  it('names the file, the judge and the field of every mistake', () => {
    expect(() =>
      loadJudges(
        write(
          'unknown.yaml',
          'judges:\n  - { name: a, llm: { model: m, rubric: r, sample: 3 } }\n',
        ),
        folder,
      ),
    ).toThrow(/unknown\.yaml: judges\[0\] \(a\): llm\.sample: unknown field/);
    expect(() =>
      loadJudges(
        write(
          'both.yaml',
          'judges:\n  - { name: a, llm: { model: m, rubric: r }, code: { module: x.js } }\n',
        ),
        folder,
      ),
    ).toThrow(/judges\[0\] \(a\): give exactly one of llm, code or check/);
    expect(() =>
      loadJudges(
        write(
          'twice.yaml',
          'judges:\n  - { name: a, llm: { model: m, rubric: r } }\n  - { name: a, llm: { model: n, rubric: r } }\n',
        ),
        folder,
      ),
    ).toThrow(/judges\[1\] \(a\): name: another judge is already named "a"/);
    expect(() =>
      loadJudges(
        write(
          'template.yaml',
          'judges:\n  - { name: a, llm: { model: m, template: desired_behaviour } }\n',
        ),
        folder,
      ),
    ).toThrow(/judges\[0\] \(a\): llm\.template: desired_behaviour needs the file's guidelines/);
    expect(() =>
      loadJudges(
        write('module.yaml', 'judges:\n  - { name: a, code: { module: ./missing.mjs } }\n'),
        folder,
      ),
    ).toThrow(/judges\[0\] \(a\): code\.module: no such file/);
  });

  it('takes guidelines inline, checked against the guidelines schema', () => {
    const path = write(
      'inline.yaml',
      'guidelines:\n  tools:\n    search: { should_use: [current events], should_not_use: [greetings, arithmetic] }\njudges:\n  - { name: a, llm: { model: m, template: desired_behaviour } }\n',
    );
    const [judge] = loadJudges(path, folder);
    expect(
      judge?.kind === 'llm' &&
        judge.prompt.kind === 'desired_behaviour' &&
        renderGuidelines(judge.prompt.guidelines),
    ).toBe(
      'Tool "search":\n  The agent should use it for:\n  - current events\n  The agent should NOT use it for:\n  - greetings\n  - arithmetic',
    );
    expect(() =>
      loadJudges(
        write(
          'bad-inline.yaml',
          'guidelines:\n  tools:\n    search: { should_use: [x], when: y }\njudges:\n  - { name: a, llm: { model: m, template: desired_behaviour } }\n',
        ),
        folder,
      ),
    ).toThrow(/guidelines: tools\.search\.when: unknown field/);
  });
});

describe('a judges file whose guidelines point outside the project', () => {
  const token = 'npm_Xy7Kq2Lm9Pz4Rt8Vw1Bn5Cd3Fg6Hj0Ks2Qa';
  const project = temporaryFolder();
  const home = temporaryFolder();
  const judgesPointingAt = (target: string): string => {
    const path = join(project, 'judges.yaml');
    writeFileSync(
      path,
      `guidelines: ${target}\njudges:\n  - { name: a, llm: { model: m, template: desired_behaviour } }\n`,
    );
    return path;
  };
  const errorOf = (load: () => unknown): string => {
    try {
      load();
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('expected the load to fail');
  };

  it.each([
    [
      'an .npmrc (a YAML string, not guidelines)',
      '.npmrc',
      `//registry.npmjs.org/:_authToken=${token}\n`,
    ],
    ['a file that is not valid YAML', 'notes.yaml', `a: [\n  ${token}\n`],
    ['a file that is not valid JSON', 'secrets.json', `{"token": "${token}" `],
    [
      'a JSON file of the wrong shape',
      'shape.json',
      `{"tools": {"search": {"should_use": "${token}"}}}`,
    ],
  ])('gives an error without the content of %s', (_label, name, content) => {
    const target = join(home, name);
    writeFileSync(target, content);
    const message = errorOf(() => loadJudges(judgesPointingAt(target), project));
    expect(message).toContain(target);
    expect(message).not.toContain(token);
    expect(message).not.toContain('registry.npmjs.org');
  });

  it('still quotes a guidelines file inside the project', () => {
    writeFileSync(join(project, 'mine.yaml'), `tools:\n  search: { should_use: ${token} }\n`);
    expect(errorOf(() => loadJudges(judgesPointingAt('mine.yaml'), project))).toContain(token);
  });

  it('quotes nothing of a judges file outside the project either', () => {
    writeFileSync(join(home, 'judges.yaml'), `judges: ${token}\n`);
    const message = errorOf(() => loadJudges(join(home, 'judges.yaml'), project));
    expect(message).toContain('judges');
    expect(message).not.toContain(token);
  });
});

describe('loadGuidelines', () => {
  it('reads should_use, should_not_use and topics per tool, in file order', () => {
    const guidelines = loadGuidelines('examples/bank/judges/guidelines.yaml', packageRoot);
    expect([...guidelines.tools.keys()]).toEqual([
      'execute_transfer',
      'get_balance',
      'search_transactions',
    ]);
    expect(guidelines.tools.get('get_balance')?.should_not_use).toEqual([
      'general questions about account types',
      'greetings and small talk',
    ]);
    const withTopics = loadGuidelines(
      write('topics.yaml', 'tools:\n  search: { should_use: [news], topics: [sport, weather] }\n'),
      folder,
    );
    expect(withTopics.tools.get('search')).toEqual({
      should_use: ['news'],
      should_not_use: [],
      topics: ['sport', 'weather'],
    });
  });

  it('refuses a tool with neither list', () => {
    expect(() =>
      loadGuidelines(write('empty.yaml', 'tools:\n  search: { topics: [x] }\n'), folder),
    ).toThrow(/empty\.yaml: tools\.search: must have required property 'should_use'/);
  });
});
