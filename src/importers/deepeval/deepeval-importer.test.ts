import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import type { SourceFile } from '../import-types.js';
import { importerOf } from '../importers.js';

const fixtures = join(import.meta.dirname, '..', '__fixtures__', 'deepeval');
const read = (path: string): SourceFile => ({
  path,
  text: readFileSync(join(fixtures, path), 'utf8'),
});
const importer = importerOf('deepeval');
if (!importer) throw new Error('the deepeval importer is registered');
const deepeval = importer;
const metric = (options: object): SourceFile => ({
  path: 'metric.json',
  text: JSON.stringify(options),
});
const convert = (source: SourceFile, options?: object) =>
  deepeval.convert(source, new Map(options ? [['metric', metric(options)]] : []));
const dataset = (goldens: object[]): SourceFile => ({
  path: 'd.json',
  text: JSON.stringify(goldens),
});
const failure = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return 'converted';
};

describe('calltape import deepeval, on DeepEval test datasets', () => {
  it("goldens.csv: each golden a case named after it, expected_tools its expected calls under ToolCorrectnessMetric's defaults (names, any order, threshold 0.5)", () => {
    const { suite, notes } = convert(read('goldens.csv'));
    const cases = suite['cases'] as { test_id: string; prompt: string; expect: unknown }[];
    expect(cases).toHaveLength(15);
    expect(cases[0]).toEqual({
      test_id: 'Name 1',
      prompt: 'What is the tallest mountain in the world?',
      expect: { calls: ['mountain_lookup'], mode: 'all', pass_threshold: 0.5 },
    });
    expect(notes[0]).toEqual({
      item: '(no --metric)',
      outcome: 'converted',
      detail: expect.stringContaining(
        "ToolCorrectnessMetric's defaults apply",
      ) as unknown as string,
    });
    // The recorded calls and the fields other metrics read are listed, never dropped silently.
    expect(notes).toContainEqual(
      expect.objectContaining({
        item: 'goldens.csv: row 2.tools_called',
        outcome: 'not converted',
      }),
    );
    expect(notes).toContainEqual(
      expect.objectContaining({
        item: 'goldens.csv: row 2',
        outcome: 'not converted',
        detail: expect.stringContaining(
          'actual_output, expected_output, context, retrieval_context, comments',
        ) as unknown as string,
      }),
    );
  });

  it('the metric options map onto modes: should_exact_match → exact, should_consider_ordering → ordered, input_parameters → arguments with nothing extra', () => {
    const exact = convert(read('goldens.csv'), {
      should_exact_match: true,
      evaluation_params: ['ToolCallParams.INPUT_PARAMETERS'],
    });
    expect((exact.suite['cases'] as { expect: unknown }[])[6]?.expect).toEqual({
      calls: [
        {
          tool: 'translator',
          arguments: { query: 'Hello', target_language: 'Spanish' },
          extra_arguments: 'fail',
        },
      ],
      mode: 'exact',
    });
    const ordered = convert(read('goldens.csv'), { shouldConsiderOrdering: true, threshold: 0.7 });
    expect((ordered.suite['cases'] as { expect: unknown }[])[0]?.expect).toEqual({
      calls: ['mountain_lookup'],
      mode: 'ordered',
      pass_threshold: 0.7,
    });
    expect(ordered.notes[0]?.outcome).toBe('approximated');
    const strict = convert(read('goldens.csv'), {
      strict_mode: true,
      evaluation_params: ['output'],
    });
    expect((strict.suite['cases'] as { expect: unknown }[])[0]?.expect).toEqual({
      calls: ['mountain_lookup'],
      mode: 'all',
    });
    expect(strict.notes[1]).toEqual(
      expect.objectContaining({ item: 'metric.json', outcome: 'not converted' }),
    );
  });

  it('goldens without tools become cases with no tool check; conversational goldens are listed as not converted', () => {
    const plain = convert(read('goldens.json'));
    expect((plain.suite['cases'] as object[])[0]).toEqual({
      test_id: 'Name 1',
      prompt: 'What is the tallest mountain in the world?',
    });
    const conversational = convert(read('convo_goldens.json'));
    expect(conversational.suite['cases']).toEqual([]);
    expect(conversational.notes.filter((note) => note.outcome === 'not converted')).toHaveLength(
      (JSON.parse(read('convo_goldens.json').text) as unknown[]).length + 1,
    );
  });

  it('an empty expected_tools means no tool may be called; tool names split by ; in CSV are read as DeepEval falls back to', () => {
    expect(convert(dataset([{ input: 'hi', expected_tools: [] }])).suite['cases']).toEqual([
      { test_id: 'golden-1', prompt: 'hi', never: ['*'] },
    ]);
    const csv = convert({ path: 'd.csv', text: 'input,expected_tools\nfind it,search; fetch\n' });
    expect(csv.suite['cases']).toEqual([
      {
        test_id: 'golden-1',
        prompt: 'find it',
        expect: { calls: ['search', 'fetch'], mode: 'all', pass_threshold: 0.5 },
      },
    ]);
  });

  it('the same input gives byte-identical output', () => {
    expect(toYaml(convert(read('goldens.csv')).suite)).toBe(
      toYaml(convert(read('goldens.csv')).suite),
    );
  });
});

describe('hostile input', () => {
  it('names the file and the field', () => {
    expect(failure(() => convert({ path: 'd.json', text: '[{' }))).toMatch(/^d\.json: not JSON: /);
    expect(failure(() => convert({ path: 'd.json', text: '{"name": 1}' }))).toBe(
      'd.json: $: expected a DeepEval dataset: a list of goldens, or an object with goldens or test_cases',
    );
    expect(
      failure(() => convert(dataset([{ input: 'x', expected_tools: [{ input_parameters: {} }] }]))),
    ).toBe('d.json: $[0].expected_tools[0].name: missing or not a text');
    expect(
      failure(() => convert({ path: 'd.csv', text: 'input,expected_tools\n"unclosed,x\n' })),
    ).toMatch(/^d\.csv: not CSV: /);
    expect(failure(() => convert({ path: 'd.csv', text: 'question\nx\n' }))).toBe(
      'd.csv: row 1: expected a header row with an input column (DeepEval: input, expected_tools, …)',
    );
    expect(
      failure(() => convert({ path: 'd.csv', text: 'input,expected_tools\nx,"[{""name"": "\n' })),
    ).toMatch(/^d\.csv: row 2\.expected_tools: not a JSON list of ToolCalls: /);
    expect(failure(() => convert(dataset([]), { evaluation_params: ['vibes'] }))).toBe(
      'metric.json: $.evaluation_params[0]: expected input_parameters or output',
    );
  });

  it('prototype keys are data: a CSV column and a parameter named __proto__ stay own keys', () => {
    const { suite } = convert(
      {
        path: 'd.csv',
        text: 'input,__proto__,expected_tools\nx,y,"[{""name"": ""__proto__"", ""input_parameters"": {""__proto__"": 1}}]"\n',
      },
      { evaluation_params: ['input_parameters'] },
    );
    expect(JSON.stringify(suite['cases'])).toBe(
      '[{"test_id":"golden-1","prompt":"x","expect":{"calls":[{"tool":"__proto__","arguments":{"__proto__":1},"extra_arguments":"fail"}],"mode":"all","pass_threshold":0.5}}]',
    );
  });
});

describe('every golden is accounted for (property)', () => {
  it('each golden becomes one case or one not-converted note naming it, and converting twice gives the same suite', () => {
    const golden = fc.record(
      {
        input: fc.oneof(fc.string(), fc.constant(undefined)),
        name: fc.oneof(
          fc.constantFrom('a', 'b', '__proto__', 'constructor'),
          fc.constant(undefined),
        ),
        expected_tools: fc.oneof(
          fc.constant(undefined),
          fc.array(
            fc.record({
              name: fc.constantFrom('search', 'fetch', '__proto__'),
              input_parameters: fc.dictionary(
                fc.constantFrom('q', '__proto__', 'toString'),
                fc.integer(),
              ),
            }),
            { maxLength: 3 },
          ),
        ),
        turns: fc.oneof(fc.constant(undefined), fc.constant('[]')),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(golden, { maxLength: 8 }), fc.boolean(), (goldens, parameters) => {
        const source = dataset(goldens);
        const options = parameters ? { evaluation_params: ['input_parameters'] } : undefined;
        const { suite, notes } = convert(source, options);
        const cases = suite['cases'] as { test_id: string }[];
        const dropped = notes.filter(
          (note) => note.outcome === 'not converted' && /^d\.json: \$\[\d+\]$/.test(note.item),
        );
        expect(cases.length + dropped.length).toBe(goldens.length);
        expect(new Set(cases.map((item) => item.test_id)).size).toBe(cases.length);
        expect(toYaml(convert(source, options).suite)).toBe(toYaml(suite));
      }),
    );
  });
});
