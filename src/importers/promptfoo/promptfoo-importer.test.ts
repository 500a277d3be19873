import { readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { CalltapeError } from '../../errors.js';
import { scoreCall } from '../../scoring/score-call.js';
import { schemasFromTools } from '../../scoring/schemas-from-tools.js';
import type { JsonValue } from '../../trace/trace.js';
import type { ReadNamedFile } from '../import-types.js';
import { importerOf } from '../importers.js';

const fixtures = join(import.meta.dirname, '..', '__fixtures__', 'promptfoo');
const registered = importerOf('promptfoo');
if (!registered) throw new Error('the promptfoo importer is registered');
const promptfoo = registered;

/** Reads a fixture folder's files as the command would, by path relative to the config. */
function folderReader(folder: string): ReadNamedFile {
  return (path) => ({
    path: normalize(path),
    text: readFileSync(join(fixtures, folder, path), 'utf8'),
  });
}
const convertFixture = (folder: string) =>
  promptfoo.convert(
    {
      path: 'promptfooconfig.yaml',
      text: readFileSync(join(fixtures, folder, 'promptfooconfig.yaml'), 'utf8'),
    },
    new Map(),
    folderReader(folder),
  );
/** A config given inline, its includes from a map of texts. */
function convertText(text: string, files: Record<string, string> = {}) {
  const read: ReadNamedFile = (path, where) => {
    const found = Object.hasOwn(files, path) ? files[path] : undefined;
    if (found === undefined)
      throw new CalltapeError('CONFIG_INVALID', `${where}: ${path}: no such file`);
    return { path, text: found };
  };
  return promptfoo.convert({ path: 'promptfooconfig.yaml', text }, new Map(), read);
}
const outcomes = (notes: readonly { item: string; outcome: string }[]) =>
  notes.map((note) => [note.outcome, note.item]);

describe('calltape import promptfoo, on promptfoo examples', () => {
  it('examples/openai-tools-call: direct mode, the name transform as expected_tool, javascript as a code judge', () => {
    const { suite, notes, files } = convertFixture('openai-tools-call');
    expect(suite['model']).toBe('gpt-6-luna');
    expect(suite['cases']).toEqual([
      {
        test_id: 'test 1',
        prompt: 'What is the weather like in Boston?',
        expected_tool: 'get_current_weather',
        extra_arguments: 'ignore',
        multiple_calls: 'all',
        judge: { code: './promptfoo-judges/test-1.mjs' },
      },
      {
        test_id: 'test 2',
        prompt: 'What is the weather like in New York?',
        expected_tool: 'get_current_weather',
        multiple_calls: 'first',
      },
      {
        test_id: 'test 3',
        prompt: 'What is the weather like in Paris?',
        expected_tool: 'get_current_weather',
        multiple_calls: 'first',
      },
    ]);
    expect(outcomes(notes)).toEqual([
      ['converted', 'promptfooconfig.yaml: providers[0]'],
      ['not converted', 'promptfooconfig.yaml: tests[0].assert[0] (is-json)'],
      ['converted', 'promptfooconfig.yaml: tests[0].assert[1] (is-valid-openai-tools-call)'],
      ['converted', 'promptfooconfig.yaml: tests[0].assert[2] (javascript)'],
      ['converted', 'promptfooconfig.yaml: tests[0].assert[3] (javascript)'],
      ['converted', 'promptfooconfig.yaml: tests[0]'],
      ['converted', 'promptfooconfig.yaml: tests[1].assert[0] (equals)'],
      ['converted', 'promptfooconfig.yaml: tests[1]'],
      ['converted', 'promptfooconfig.yaml: tests[2].assert[0] (equals)'],
      ['not converted', 'promptfooconfig.yaml: tests[2].assert[1] (similar)'],
      ['converted', 'promptfooconfig.yaml: tests[2]'],
      ['not converted', 'promptfooconfig.yaml: tests[3]'],
    ]);
    expect(files?.map((file) => file.path)).toEqual(['promptfoo-judges/test-1.mjs']);
    expect(files?.[0]?.text).toContain(
      "JSON.parse(output[0].function.arguments).location === 'Boston, MA'",
    );
  });

  it('the trajectory assertions of the OpenAI Agents guide: tool-used and args fold into the ordered sequence; span counts are not converted', () => {
    const { suite, notes } = convertFixture('trajectory');
    expect(suite['model']).toBeUndefined();
    expect((suite['cases'] as { expect: unknown }[])[0]?.expect).toEqual({
      calls: [
        'lookup_reservation',
        {
          tool: 'update_seat',
          arguments: { confirmation_number: 'ABC123', new_seat: '14C' },
          extra_arguments: 'ignore',
        },
        'faq_lookup',
      ],
      mode: 'ordered',
    });
    expect(outcomes(notes)).toEqual([
      ['not converted', 'promptfooconfig.yaml: providers[0]'],
      ['converted', 'promptfooconfig.yaml: tests[0].assert[0] (trajectory:tool-used)'],
      ['converted', 'promptfooconfig.yaml: tests[0].assert[1] (trajectory:tool-args-match)'],
      ['approximated', 'promptfooconfig.yaml: tests[0].assert[2] (trajectory:tool-sequence)'],
      ['not converted', 'promptfooconfig.yaml: tests[0].assert[3] (trajectory:step-count)'],
      ['not converted', 'promptfooconfig.yaml: tests[0].assert[4] (trace-error-spans)'],
      ['converted', 'promptfooconfig.yaml: tests[0]'],
    ]);
  });

  it('file:// includes: defaultTest merged as promptfoo merges it, CSV and JSONL tests, Nunjucks filters, Responses tools in Chat shape', () => {
    const { suite, notes } = convertFixture('includes');
    expect(suite['model']).toBe('gpt-4.1-mini');
    expect(
      (suite['tools'] as { function: { name: string } }[]).map((tool) => tool.function.name),
    ).toEqual(['lookup_order', 'issue_refund']);
    const cases = suite['cases'] as {
      test_id: string;
      prompt: string;
      expected_tool: unknown;
      expect?: unknown;
      never?: unknown;
    }[];
    // defaultTest.vars.shop reaches every prompt; `| trim` is Nunjucks' own filter.
    expect(cases.map((item) => [item.test_id, item.prompt])).toEqual([
      ['refund after lookup', 'You are the Acme refund desk. Refund order A-17 in full.'],
      ['partial refund', 'You are the Acme refund desk. Refund 10 dollars of order B-2.'],
      ['lookup by id', 'You are the Acme refund desk. Where is order C-3?'],
      ['small talk', 'You are the Acme refund desk. What is your name?'],
      ['reads context', 'You are the Acme refund desk. Refund D-4'],
    ]);
    // defaultTest's is-valid-openai-tools-call applies to every test, before the test's own.
    for (const item of cases) expect(item.expected_tool).toEqual(['lookup_order', 'issue_refund']);
    expect(cases[0]?.expect).toEqual({
      calls: ['lookup_order', 'issue_refund'],
      mode: 'all',
      unlisted: 'fail',
      never_before: ['issue_refund', 'lookup_order'],
      max_steps: 4,
    });
    expect(cases[1]?.never).toEqual(['delete_order']);
    expect(cases[3]?.never).toEqual(['lookup_order']);
    expect(notes).toContainEqual({
      item: 'promptfooconfig.yaml: providers[0].config.tool_choice',
      outcome: 'not converted',
      detail: expect.stringContaining('no tool_choice') as unknown as string,
    });
    expect(
      notes.filter((note) => note.item.startsWith('promptfooconfig.yaml: defaultTest.assert[0]')),
    ).toHaveLength(5);
    expect(outcomes(notes)).toContainEqual([
      'not converted',
      'tests/more.jsonl: line 1.assert[0] (javascript)',
    ]);
    expect(outcomes(notes)).toContainEqual(['approximated', 'tests/refunds.yaml: [1].threshold']);
    expect(
      notes.find(
        (note) => note.item === 'tests/refunds.yaml: [1].assert[0] (trajectory:tool-args-match)',
      ),
    ).toMatchObject({
      outcome: 'approximated',
      detail: expect.stringContaining('weight 2') as unknown as string,
    });
  });

  it('importing twice gives the same suite, notes and files, byte for byte', () => {
    for (const folder of ['openai-tools-call', 'trajectory', 'includes']) {
      const first = convertFixture(folder);
      const second = convertFixture(folder);
      expect(toYaml(second.suite)).toBe(toYaml(first.suite));
      expect(second.notes).toEqual(first.notes);
      expect(second.files).toEqual(first.files);
    }
  });
});

describe('calltape import promptfoo, prompts', () => {
  it('one case per test and prompt; a chat prompt file becomes messages, rendered before it is parsed', () => {
    const { suite } = convertText(
      [
        'prompts: [file://p.txt, file://chat.json]',
        'providers: [openai:chat:gpt-4o-mini]',
        'tests:',
        '  - description: lookup',
        '    vars: { order: A-17 }',
        '    assert: [{ type: trajectory:tool-used, value: lookup_order }]',
      ].join('\n'),
      {
        'p.txt': 'Find {{ order }}.\n---\nWhere is {{ order }}?\n',
        'chat.json':
          '[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Track {{ order }}"}]',
      },
    );
    expect(
      (suite['cases'] as { test_id: string; prompt?: string; messages?: unknown }[]).map((item) => [
        item.test_id,
        item.prompt ?? item.messages,
      ]),
    ).toEqual([
      ['lookup (prompt 1)', 'Find A-17.'],
      ['lookup (prompt 2)', 'Where is A-17?'],
      [
        'lookup (prompt 3)',
        [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Track A-17' },
        ],
      ],
    ]);
  });
});

describe('calltape import promptfoo, on hostile input', () => {
  const expectError = (run: () => unknown, message: string): void => {
    expect(run).toThrowError(CalltapeError);
    expect(run).toThrowError(message);
  };

  it('bad YAML, a config that is not a mapping, a test that is not an object: errors naming the file and field', () => {
    expectError(() => convertText('prompts: [unclosed'), 'promptfooconfig.yaml: not valid YAML');
    expectError(() => convertText('- 1'), 'promptfooconfig.yaml: a promptfoo config is a mapping');
    expectError(
      () => convertText('tests: [3]'),
      'promptfooconfig.yaml: tests[0]: must be an object',
    );
    expectError(
      () => convertText('tests: [{ assert: [{ value: x }] }]'),
      'promptfooconfig.yaml: tests[0].assert[0].type: missing or not a text',
    );
    expectError(
      () => convertText('tests: file://t.jsonl', { 't.jsonl': '{"vars": {}}\n{oops\n' }),
      't.jsonl: line 2: not JSON',
    );
    expectError(
      () => convertText('tests: file://t.csv', { 't.csv': 'a,b\n"unclosed\n' }),
      't.csv: not valid CSV',
    );
    expectError(
      () => convertText('tests: file://t.txt', { 't.txt': 'x' }),
      't.txt: calltape reads tests from',
    );
  });

  it('unknown assertion types are listed as not converted, never dropped', () => {
    const { notes } = convertText(
      "providers: [openai:gpt-4o-mini]\ntests:\n  - assert:\n      - { type: no-such-type, value: x }\n      - { type: trajectory:goal-success, value: book it }\n      - { type: python, value: 'True' }\n",
    );
    expect(outcomes(notes)).toEqual([
      ['converted', 'promptfooconfig.yaml: providers[0]'],
      ['not converted', 'promptfooconfig.yaml: tests[0].assert[0] (no-such-type)'],
      ['not converted', 'promptfooconfig.yaml: tests[0].assert[1] (trajectory:goal-success)'],
      ['not converted', 'promptfooconfig.yaml: tests[0].assert[2] (python)'],
      ['not converted', 'promptfooconfig.yaml: tests[0]'],
    ]);
  });

  it('__proto__ and constructor as var, tool, argument and column names are data', () => {
    const { suite } = convertText(
      [
        "prompts: ['{{ __proto__ }} and {{ toString }}']",
        'tests:',
        '  - vars: { __proto__: polluted, toString: text }',
        '    assert:',
        '      - type: trajectory:tool-args-match',
        '        value: { name: constructor, args: { __proto__: 1, constructor: 2 } }',
        '  - file://t.csv',
      ].join('\n'),
      { 't.csv': '__proto__,__expected\nrow,trajectory:tool-used: __proto__\n' },
    );
    const cases = suite['cases'] as {
      prompt: string;
      expect: { calls: { tool: string; arguments?: object }[] };
    }[];
    // As promptfoo renders it: Nunjucks copies the vars into a plain object, where __proto__ is no var.
    expect(cases[0]?.prompt).toBe('[object Object] and text');
    expect(Object.hasOwn(cases[0]?.expect.calls[0]?.arguments ?? {}, '__proto__')).toBe(true);
    expect(cases[0]?.expect.calls[0]?.tool).toBe('constructor');
    expect(cases[1]?.expect.calls).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('a template that reaches past its vars into JavaScript is refused, not rendered', () => {
    expectError(
      () =>
        convertText(
          'prompts: [\'{{ range.constructor("return process")() }}\']\ntests: [{ assert: [{ type: trajectory:tool-used, value: a }] }]',
        ),
      'promptfooconfig.yaml: prompts[0] with promptfooconfig.yaml: tests[0].vars: the template names "constructor"',
    );
  });

  it('javascript that closes the function it is put in, or reads more than the output, is not converted', () => {
    const { notes } = convertText(
      [
        'tests:',
        '  - assert:',
        '      - { type: javascript, value: "return true;\\n}); globalThis.x = 1; (function () {" }',
        "      - { type: javascript, value: \"require('fs').existsSync('x')\" }",
        "      - { type: javascript, value: 'file://check.js' }",
      ].join('\n'),
    );
    expect(notes.map((note) => note.detail)).toEqual([
      'no provider: give the suite model and tools (direct mode) or agent.command',
      expect.stringContaining('does not parse: it closes the function'),
      expect.stringContaining('it reads require'),
      expect.stringContaining('copy it into a code judge module'),
      expect.stringContaining('nothing to check'),
    ]);
  });

  it('globs and code are named as not converted; a var list too large to expand is refused', () => {
    const { notes } = convertText(
      "prompts: [file://p/*.txt, file://make.py]\ntests: [file://tests/*.yaml, { vars: { q: 'file://q.js' } }]",
    );
    expect(outcomes(notes)).toEqual([
      ['not converted', 'promptfooconfig.yaml: prompts[0]'],
      ['not converted', 'promptfooconfig.yaml: prompts[1]'],
      ['not converted', 'promptfooconfig.yaml: tests[0]'],
      ['not converted', 'promptfooconfig.yaml: tests[1]'],
      ['not converted', '(providers)'],
    ]);
    const wide = `tests: [{ vars: { a: [${Array.from({ length: 101 }, (_, i) => i).join(',')}], b: [${Array.from({ length: 100 }, (_, i) => i).join(',')}] } }]`;
    expectError(
      () => convertText(wide),
      'promptfooconfig.yaml: tests[0].vars: its lists expand into more than 10000 tests',
    );
  });

  it('a large test file converts whole: 5,000 tests, 5,000 cases, every one noted', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `q${i},trajectory:tool-used: lookup`).join(
      '\n',
    );
    const { suite, notes } = convertText("prompts: ['{{q}}']\ntests: file://t.csv", {
      't.csv': `q,__expected\n${rows}\n`,
    });
    expect(suite['cases']).toHaveLength(5000);
    expect(notes.filter((note) => note.outcome === 'converted')).toHaveLength(10000);
  });

  it('every assertion gets exactly one note, whatever its type and value (property)', () => {
    const types = [
      'equals',
      'contains',
      'javascript',
      'tool-call-f1',
      'trajectory:tool-used',
      'trajectory:tool-sequence',
      'trajectory:tool-args-match',
      'trajectory:step-count',
      'is-valid-openai-tools-call',
      'llm-rubric',
      'x',
    ];
    const value = fc.oneof(
      fc.string(),
      fc.array(fc.string()),
      fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer())),
      fc.integer(),
    );
    const assertion = fc.record({
      type: fc.constantFrom(...types.flatMap((type) => [type, `not-${type}`])),
      value,
    });
    fc.assert(
      fc.property(
        fc.array(fc.array(assertion, { maxLength: 5 }), { minLength: 1, maxLength: 4 }),
        (tests) => {
          const config = {
            providers: ['openai:gpt-4o-mini'],
            tests: tests.map((assert) => ({ assert })),
          };
          const { notes } = convertText(JSON.stringify(config));
          for (const [index, assert] of tests.entries())
            assert.forEach((_, position) =>
              expect(
                notes.filter((note) =>
                  note.item.startsWith(
                    `promptfooconfig.yaml: tests[${index}].assert[${position}] (`,
                  ),
                ),
              ).toHaveLength(1),
            );
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('the written judge module', () => {
  it("runs promptfoo's javascript on the output promptfoo would give it, and negated assertions invert", async () => {
    const { files } = convertText(
      [
        'providers: [openai:gpt-4o-mini]',
        'tests:',
        '  - assert:',
        '      - { type: javascript, value: "output[0].function.name === \'get_weather\'" }',
        '      - { type: not-javascript, value: "output.length > 1" }',
        '      - { type: javascript, value: "const args = JSON.parse(output[0].function.arguments);\\nreturn args.city.length / 10;", threshold: 0.5 }',
      ].join('\n'),
    );
    const text = (files ?? [])[0]?.text ?? '';
    const module = (await import(`data:text/javascript,${encodeURIComponent(text)}`)) as {
      judge: (trajectory: unknown) => { pass: boolean; reason?: string };
    };
    const trajectory = (name: string, city: string, count = 1) => ({
      turns: [
        {
          text: '',
          calls: Array.from({ length: count }, () => ({
            id: 'c',
            name,
            argumentsRaw: JSON.stringify({ city }),
          })),
        },
      ],
    });
    expect(module.judge(trajectory('get_weather', 'Paris, FR')).pass).toBe(true);
    expect(module.judge(trajectory('get_weather', 'Oslo')).pass).toBe(false);
    expect(module.judge(trajectory('get_time', 'Paris, FR')).reason).toContain(
      'assert[0] (javascript): does not hold',
    );
    expect(module.judge(trajectory('get_weather', 'Paris, FR', 2)).reason).toContain(
      'holds, and the assertion is negated',
    );
  });
});

describe('is-valid-openai-tools-call, imported, agrees with promptfoo', () => {
  it('passes a call valid by its schema (extra arguments allowed, as Ajv allows them) and fails a bad enum, a missing required argument, an unoffered tool or no call', () => {
    const { suite } = convertFixture('openai-tools-call');
    const testCase = (suite['cases'] as JsonValue[])[0] as unknown as Parameters<
      typeof scoreCall
    >[0];
    const schemas = schemasFromTools(suite['tools'] as Parameters<typeof schemasFromTools>[0]);
    const verdict = (calls: { name: string; arguments: Record<string, JsonValue> }[]) =>
      scoreCall({ ...testCase, schemas } as Parameters<typeof scoreCall>[0], calls).is_correct;
    expect(
      verdict([{ name: 'get_current_weather', arguments: { location: 'Boston, MA', extra: 1 } }]),
    ).toBe(true);
    expect(
      verdict([{ name: 'get_current_weather', arguments: { location: 'Boston', unit: 'kelvin' } }]),
    ).toBe(false);
    expect(verdict([{ name: 'get_current_weather', arguments: { unit: 'celsius' } }])).toBe(false);
    expect(verdict([{ name: 'get_forecast', arguments: { location: 'Boston' } }])).toBe(false);
    expect(verdict([])).toBe(false);
  });
});
