import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import type { JsonValue } from '../../trace/trace.js';
import type { SourceFile } from '../import-types.js';
import { importerOf } from '../importers.js';
import { renderTemplate, toolReference } from './eval-template.js';

const fixtures = join(import.meta.dirname, '..', '__fixtures__', 'openai-evals');
const read = (path: string): SourceFile => ({
  path,
  text: readFileSync(join(fixtures, path), 'utf8'),
});
const importer = importerOf('openai-evals');
if (!importer) throw new Error('the openai-evals importer is registered');
const evals = importer;
const convert = (source: SourceFile, files: Record<string, SourceFile> = {}) =>
  evals.convert(source, new Map(Object.entries(files)));
const evalWith = (criteria: object[]): SourceFile => ({
  path: 'e.json',
  text: JSON.stringify({ data_source_config: { type: 'custom' }, testing_criteria: criteria }),
});
const items = (...rows: object[]): SourceFile => ({
  path: 'i.jsonl',
  text: rows.map((row) => JSON.stringify({ item: row })).join('\n'),
});
const failure = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return 'converted';
};

describe('calltape import openai-evals, on the graders guide and SDK examples', () => {
  it("the guide's tool-call multi grader: the name check becomes expected_tool, the arguments check arguments (by value, nothing extra), per item; the run gives prompt, model and tools", () => {
    const { suite, notes } = convert(read('tool-calls.eval.json'), {
      items: read('tool-calls.items.jsonl'),
      run: read('tool-calls.run.json'),
    });
    expect(suite['model']).toBe('gpt-4.1');
    expect(JSON.stringify(suite['tools'])).toContain('"name":"get_acceptors"');
    expect(suite['cases']).toEqual([
      {
        test_id: 'item-1',
        messages: [
          { role: 'developer', content: 'You answer chemistry questions with your tools.' },
          { role: 'user', content: 'Which atoms of CCO are hydrogen-bond acceptors?' },
        ],
        expected_tool: 'get_acceptors',
        arguments: { smiles: 'CCO' },
        extra_arguments: 'fail',
        multiple_calls: 'first',
      },
      expect.objectContaining({ test_id: 'item-2', arguments: { smiles: 'c1ccccc1O' } }),
    ]);
    expect(notes.map((note) => [note.outcome, note.item])).toEqual([
      ['converted', 'tool-calls.run.json: $.data_source'],
      ['not converted', 'tool-calls.run.json: $.data_source.sampling_params'],
      ['approximated', 'tool-calls.run.json: $.data_source.source'],
      ['converted', 'tool-calls.eval.json: $.testing_criteria[0].graders.function_name'],
      ['approximated', 'tool-calls.eval.json: $.testing_criteria[0].graders.arguments'],
      ['approximated', 'tool-calls.eval.json: $.testing_criteria[0]'],
      ['converted', 'tool-calls.items.jsonl: line 1'],
      ['converted', 'tool-calls.items.jsonl: line 2'],
    ]);
    expect(notes.find((note) => note.item.endsWith('$.testing_criteria[0]'))?.detail).toContain(
      '"0.5 * function_name + 0.5 * arguments" is not kept',
    );
  });

  it('the SDK label_model grader becomes a judge with its model; a jsonl run without a template says each item lacks a prompt', () => {
    const { suite, notes } = convert(read('sdk-label-model.eval.json'), {
      run: read('sdk-jsonl.run.json'),
    });
    expect(suite['cases']).toEqual([]);
    expect(notes).toContainEqual({
      item: 'sdk-jsonl.run.json: $.data_source.source.content[0]',
      outcome: 'not converted',
      detail: 'no prompt: the run has no input_messages template, and the item has no input text',
    });
    const judged = convert(read('sdk-label-model.eval.json'), { items: items({ input: 'Hi' }) });
    expect(judged.suite['cases']).toEqual([
      {
        test_id: 'item-1',
        prompt: 'Hi',
        judge: {
          rubric:
            'The OpenAI eval\'s label_model grader "name" asks:\nrole: content\nPass when this grader would give one of the labels string (of string).',
          model: 'model',
        },
      },
    ]);
    expect(judged.notes.map((note) => note.item)).toContain('(run)');
    // A JSONL line's pre-generated sample is listed, never dropped silently.
    const sampled = convert(read('sdk-label-model.eval.json'), {
      items: {
        path: 'i.jsonl',
        text: '{"item": {"input": "Hi"}, "sample": {"output_text": "Hello"}}',
      },
    });
    expect(sampled.notes).toContainEqual(
      expect.objectContaining({ item: 'i.jsonl: line 1.sample', outcome: 'not converted' }),
    );
  });
});

describe('grader mapping', () => {
  const run: SourceFile = {
    path: 'r.json',
    text: JSON.stringify({
      data_source: {
        type: 'responses',
        model: 'm',
        input_messages: {
          type: 'template',
          template: [{ role: 'user', content: 'Book {{item.city}}' }],
        },
        sampling_params: {
          tools: [
            { type: 'function', name: 'book', parameters: { type: 'object' } },
            { type: 'web_search_preview' },
          ],
        },
      },
    }),
  };
  const check = (grader: object, item: object = { city: 'Oslo', tool: 'book' }) =>
    convert(evalWith([grader]), { items: items(item), run });

  it('string_check operations on the tool name: eq exact, like a *name* glob, ne a forbidden call; ilike says it turned case-sensitive', () => {
    const name = (operation: string) =>
      check({
        type: 'string_check',
        name: 'n',
        input: '{{sample.output_tools[0].function.name}}',
        reference: '{{item.tool}}',
        operation,
      });
    expect(name('eq').suite['cases']).toEqual([
      { test_id: 'item-1', prompt: 'Book Oslo', expected_tool: 'book', multiple_calls: 'first' },
    ]);
    expect(name('like').suite['cases']).toEqual([
      { test_id: 'item-1', prompt: 'Book Oslo', expected_tool: '*book*', multiple_calls: 'first' },
    ]);
    expect(name('ne').suite['cases']).toEqual([
      { test_id: 'item-1', prompt: 'Book Oslo', never: ['book'] },
    ]);
    expect(
      name('ilike').notes.find((note) => note.item === 'e.json: $.testing_criteria[0]')?.detail,
    ).toContain('case-sensitive, where ilike ignores case');
  });

  it('Responses-shaped function tools become Chat Completions tools; built-in tools are listed as not converted', () => {
    const { suite, notes } = check({
      type: 'string_check',
      name: 'n',
      input: '{{sample.output_tools[0].function.name}}',
      reference: 'book',
      operation: 'eq',
    });
    expect(suite['tools']).toEqual([
      { type: 'function', function: { name: 'book', parameters: { type: 'object' } } },
    ]);
    expect(notes).toContainEqual(
      expect.objectContaining({
        item: 'r.json: $.data_source.sampling_params.tools[1]',
        outcome: 'not converted',
      }),
    );
  });

  it('text_similarity on arguments: fuzzy (or semantic for cosine) rules on each text argument with the pass threshold', () => {
    const similar = (metric: string) =>
      check({
        type: 'text_similarity',
        name: 's',
        input: '{{sample.output_tools[1].function.arguments}}',
        reference: '{"city": "{{item.city}}", "nights": 2}',
        evaluation_metric: metric,
        pass_threshold: 0.8,
      }).suite['cases'];
    expect(similar('fuzzy_match')).toEqual([
      {
        test_id: 'item-1',
        prompt: 'Book Oslo',
        expected_tool: '*',
        arguments: { city: 'Oslo', nights: 2 },
        rules: { city: { matching_strategy: 'fuzzy', threshold: 0.8 } },
        extra_arguments: 'fail',
        multiple_calls: 'first',
      },
    ]);
    expect(JSON.stringify(similar('cosine'))).toContain('"matching_strategy":"semantic"');
  });

  it('python graders are not converted and their source is in the note; text checks are not converted with the reason', () => {
    const { notes } = convert(
      evalWith([
        { type: 'python', name: 'p', source: 'def grade(sample, item):\n    return 1.0' },
        {
          type: 'string_check',
          name: 't',
          input: '{{sample.output_text}}',
          reference: '{{item.answer}}',
          operation: 'eq',
        },
      ]),
      { items: items({ input: 'x' }) },
    );
    expect(notes[1]).toEqual({
      item: 'e.json: $.testing_criteria[0]',
      outcome: 'not converted',
      detail: expect.stringContaining(
        'def grade(sample, item):\n    return 1.0',
      ) as unknown as string,
    });
    expect(notes[2]?.detail).toContain("compares the model's reply text");
  });

  it('an item lacking a field a grader reads keeps its case and says which check did not convert', () => {
    const { suite, notes } = check(
      {
        type: 'string_check',
        name: 'n',
        input: '{{sample.output_tools[0].function.name}}',
        reference: '{{item.missing}}',
        operation: 'eq',
      },
      { city: 'Oslo' },
    );
    expect(suite['cases']).toEqual([{ test_id: 'item-1', prompt: 'Book Oslo' }]);
    expect(notes).toContainEqual({
      item: 'i.jsonl: line 1',
      outcome: 'not converted',
      detail: 'grader n: the item has no item.missing',
    });
  });

  it('the same input gives byte-identical output', () => {
    const once = () =>
      toYaml(
        convert(read('tool-calls.eval.json'), {
          items: read('tool-calls.items.jsonl'),
          run: read('tool-calls.run.json'),
        }).suite,
      );
    expect(once()).toBe(once());
  });
});

describe('hostile input', () => {
  it('names the file and the field: not JSON, not an eval, unknown grader types, bad operations, bad JSONL lines', () => {
    expect(failure(() => convert({ path: 'e.json', text: '{oops' }))).toMatch(
      /^e\.json: not JSON: /,
    );
    expect(failure(() => convert({ path: 'e.json', text: '{"name": "x"}' }))).toMatch(
      /^e\.json: \$\.testing_criteria: missing or not a list: this is not an OpenAI eval object/,
    );
    expect(failure(() => convert(evalWith([{ type: 'endpoint', name: 'x' }])))).toBe(
      'e.json: $.testing_criteria[0].type: "endpoint" is not a grader type calltape knows (string_check, text_similarity, label_model, score_model, python, multi)',
    );
    expect(
      failure(() =>
        convert(
          evalWith([{ type: 'string_check', input: 'a', reference: 'b', operation: 'startswith' }]),
        ),
      ),
    ).toBe(
      'e.json: $.testing_criteria[0].operation: "startswith" is not one of eq, ne, like, ilike',
    );
    expect(
      failure(() =>
        convert(evalWith([]), { items: { path: 'i.jsonl', text: '{"item": {}}\n{nope' } }),
      ),
    ).toMatch(/^i\.jsonl: line 2: not JSON: /);
  });

  it('prototype keys are data: an item field and an argument named __proto__ are read and written as own keys', () => {
    const { suite } = convert(
      evalWith([
        {
          type: 'string_check',
          name: 'a',
          input: '{{sample.output_tools[0].function.arguments}}',
          reference: '{"__proto__": "{{item.__proto__}}"}',
          operation: 'eq',
        },
        {
          type: 'text_similarity',
          name: 's',
          input: '{{sample.output_tools[1].function.arguments}}',
          reference: '{"__proto__": "x"}',
          evaluation_metric: 'fuzzy_match',
          pass_threshold: 0.5,
        },
      ]),
      { items: { path: 'i.jsonl', text: '{"input": "go", "__proto__": "polluted"}' } },
    );
    const text = JSON.stringify(suite);
    expect(text).toContain('"arguments":{"__proto__":"polluted"}');
    expect(text).toContain('"rules":{"__proto__":{"matching_strategy":"fuzzy","threshold":0.5}}');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('a large items file converts every item', () => {
    const rows = Array.from({ length: 20_000 }, (_, index) => ({ input: `q${index}` }));
    const { suite, notes } = convert(evalWith([]), { items: items(...rows) });
    expect((suite['cases'] as unknown[]).length).toBe(20_000);
    expect(notes.filter((note) => note.outcome === 'converted')).toHaveLength(20_000);
  });
});

describe('templates', () => {
  it('a tool reference is a whole template naming one call field', () => {
    expect(toolReference('{{ sample.output_tools[2].function.arguments }}')).toEqual({
      index: 2,
      field: 'arguments',
    });
    expect(toolReference('name: {{sample.output_tools[0].function.name}}')).toBeUndefined();
  });

  it('rendering an item puts each text field in as is and anything else as JSON (property)', () => {
    fc.assert(
      fc.property(
        fc.string().filter((text) => !text.includes('{{')),
        fc.jsonValue(),
        (text, value) => {
          const rendered = renderTemplate(`${text}{{item.v}}`, { v: (value ?? null) as JsonValue });
          expect(rendered).toEqual({
            text: `${text}${typeof value === 'string' ? value : JSON.stringify(value ?? null)}`,
          });
        },
      ),
    );
  });
});
