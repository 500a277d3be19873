import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import type { SourceFile } from '../import-types.js';
import { importerOf } from '../importers.js';

const fixtures = join(import.meta.dirname, '..', '__fixtures__', 'bfcl');
const read = (path: string): SourceFile => ({
  path,
  text: readFileSync(join(fixtures, path), 'utf8'),
});
const bfcl = importerOf('bfcl');
if (!bfcl) throw new Error('the bfcl importer is registered');
const convert = (file: string) => bfcl.convert(read(file), new Map(), read);

/** A one-question category file and its answers, written as BFCL writes them. */
function oneQuestion(
  id: string,
  fn: object,
  truth: object[],
): { source: SourceFile; answers: SourceFile } {
  return {
    source: {
      path: `BFCL_v4_x.json`,
      text: `${JSON.stringify({ id, question: [[{ role: 'user', content: 'Do it.' }]], function: [fn] })}\n`,
    },
    answers: {
      path: 'possible_answer/BFCL_v4_x.json',
      text: `${JSON.stringify({ id, ground_truth: truth })}\n`,
    },
  };
}
const convertOne = (id: string, fn: object, truth: object[]) => {
  const { source, answers } = oneQuestion(id, fn, truth);
  return bfcl.convert(source, new Map([['answers', answers]]));
};
type Case = { readonly [key: string]: unknown };
const casesOf = (suite: { readonly [key: string]: unknown }): Case[] => suite['cases'] as Case[];

describe('calltape import bfcl, on BFCL samples', () => {
  it('a simple question: its messages, its function as a tool (BFCL type names mapped), its answer as expected_tool with any_of, the omitted marker and loose_string', () => {
    const { suite, notes } = convert('BFCL_v4_simple_python.json');
    const first = casesOf(suite)[0];
    expect(first).toEqual({
      test_id: 'simple_python_0',
      messages: [
        {
          role: 'user',
          content: 'Find the area of a triangle with a base of 10 units and height of 5 units.',
        },
      ],
      expected_tool: 'calculate_triangle_area',
      arguments: { base: 10, height: 5, unit: 'units' },
      rules: { unit: { any_of: ['units', { $omitted: true }], matching_strategy: 'loose_string' } },
      schemas: { calculate_triangle_area: { type: 'object' } },
    });
    expect((suite['tools'] as Case[])[0]).toEqual({
      type: 'function',
      function: {
        name: 'calculate_triangle_area',
        description: 'Calculate the area of a triangle given its base and height.',
        parameters: {
          type: 'object',
          properties: {
            base: { type: 'integer', description: 'The base of the triangle.' },
            height: { type: 'integer', description: 'The height of the triangle.' },
            unit: {
              type: 'string',
              description: "The unit of measure (defaults to 'units' if not specified)",
            },
          },
          required: ['base', 'height'],
        },
      },
    });
    expect(suite['defaults']).toEqual({ extra_arguments: 'fail' });
    // Every question has a note, and the suite one more.
    expect(notes).toHaveLength(casesOf(suite).length + 1);
    expect(notes[0]).toEqual({
      item: 'BFCL_v4_simple_python.json: line 1 (simple_python_0)',
      outcome: 'converted',
      detail: expect.stringContaining('one call as expected_tool') as unknown as string,
    });
  });

  it('dotted function names become what BFCL offers OpenAI models; float, dict and tuple become number, object and array', () => {
    const { suite } = convertOne(
      'simple_1',
      {
        name: 'geo.distance',
        parameters: {
          type: 'dict',
          properties: {
            point: { type: 'tuple', items: { type: 'float' } },
            options: { type: 'dict', properties: { unit: { type: 'string' } } },
            scale: { type: 'float', optional: true },
          },
          required: ['point'],
        },
      },
      [{ 'geo.distance': { point: [[1.5, 2]], scale: [1.0, ''] } }],
    );
    const tool = (suite['tools'] as { function: { name: string; parameters: unknown } }[])[0];
    expect(tool?.function.name).toBe('geo_distance');
    expect(tool?.function.parameters).toEqual({
      type: 'object',
      properties: {
        point: { type: 'array', items: { type: 'number' } },
        options: { type: 'object', properties: { unit: { type: 'string' } } },
        scale: { type: 'number' },
      },
      required: ['point'],
    });
    expect(casesOf(suite)[0]?.['expected_tool']).toBe('geo_distance');
  });

  it('parallel answers become expected_calls; irrelevance questions expect no call', () => {
    const parallel = casesOf(convert('BFCL_v4_parallel.json').suite)[0];
    expect((parallel?.['expected_calls'] as unknown[]).length).toBeGreaterThan(1);
    expect(parallel?.['expected_tool']).toBeUndefined();
    const irrelevance = casesOf(convert('BFCL_v4_irrelevance.json').suite);
    expect(irrelevance.every((item) => item['expected_tool'] === null)).toBe(true);
  });

  it('a dict parameter is checked key by key; one that may be left out gets an alternative without it', () => {
    const { suite } = convertOne(
      'simple_2',
      {
        name: 'book',
        parameters: {
          type: 'dict',
          properties: { room: { type: 'dict' }, guest: { type: 'string' } },
          required: ['guest'],
        },
      },
      [
        {
          book: {
            guest: ['Ann'],
            room: ['', { kind: ['double', 'twin'], floor: [2, ''], view: [''] }],
          },
        },
      ],
    );
    expect(casesOf(suite)[0]).toMatchObject({
      expected_tool: 'book',
      arguments: { guest: 'Ann', room: { kind: 'double', floor: 2 } },
      rules: {
        guest: { matching_strategy: 'loose_string' },
        'room.kind': { any_of: ['double', 'twin'], matching_strategy: 'loose_string' },
        'room.floor': { any_of: [2, { $omitted: true }] },
        'room.view': { any_of: [{ $omitted: true }] },
      },
      alternatives: [
        {
          tool: 'book',
          arguments: { guest: 'Ann' },
          rules: { guest: { matching_strategy: 'loose_string' } },
        },
      ],
    });
  });

  it('a list of strings gets loose_string on every element, as BFCL folds each string of a list; a list of numbers none', () => {
    const { suite } = convertOne(
      'simple_4',
      {
        name: 'drop',
        parameters: {
          type: 'dict',
          properties: {
            columns: { type: 'array', items: { type: 'string' } },
            sizes: { type: 'array', items: { type: 'integer' } },
          },
          required: ['columns'],
        },
      },
      [
        {
          drop: {
            columns: [
              ['email', 'ssn'],
              ['ssn', 'email'],
            ],
            sizes: [[1, 2], ''],
          },
        },
      ],
    );
    expect(casesOf(suite)[0]?.['rules']).toEqual({
      columns: {
        any_of: [
          ['email', 'ssn'],
          ['ssn', 'email'],
        ],
      },
      'columns[]': { matching_strategy: 'loose_string' },
      sizes: { any_of: [[1, 2], { $omitted: true }] },
    });
  });

  it('bug: strings inside a list of dicts were compared exactly without a note saying so', () => {
    const { notes } = convertOne(
      'simple_5',
      {
        name: 'order',
        parameters: {
          type: 'dict',
          properties: { items: { type: 'array', items: { type: 'dict' } } },
          required: ['items'],
        },
      },
      [{ order: { items: [[{ sku: ['Ab-1'] }]] } }],
    );
    expect(notes[0]).toMatchObject({
      outcome: 'approximated',
      detail: expect.stringContaining(
        'items: strings inside a list are compared exactly',
      ) as unknown as string,
    });
  });

  it('a required parameter is never optional, even where the answer lists ""', () => {
    const { suite } = convertOne(
      'simple_3',
      {
        name: 'f',
        parameters: {
          type: 'dict',
          properties: { a: { type: 'integer' } },
          required: ['a'],
        },
      },
      [{ f: { a: [1, 2, ''] } }],
    );
    expect(casesOf(suite)[0]?.['rules']).toEqual({ a: { any_of: [1, 2] } });
  });

  it('Java, JavaScript, multi-turn and unanswered questions are listed as not converted, each with why', () => {
    const line = (id: string, turns = 1): string =>
      JSON.stringify({
        id,
        question: Array.from({ length: turns }, () => [{ role: 'user', content: 'hi' }]),
        function: [],
      });
    const { suite, notes } = bfcl.convert(
      {
        path: 'mixed.json',
        text: [
          line('simple_java_0'),
          line('simple_javascript_3'),
          line('multi_turn_base_1'),
          line('simple_python_9', 2),
          line('simple_python_8'),
          line('live_relevance_1-1-0'),
        ].join('\n'),
      },
      new Map([
        [
          'answers',
          {
            path: 'answers.json',
            text: JSON.stringify({ id: 'simple_python_404', ground_truth: [] }),
          },
        ],
      ]),
    );
    expect(notes.map((note) => [note.item, note.outcome, note.detail.slice(0, 40)])).toEqual([
      [
        'mixed.json: line 1 (simple_java_0)',
        'not converted',
        'BFCL checks Java and JavaScript answers ',
      ],
      [
        'mixed.json: line 2 (simple_javascript_3)',
        'not converted',
        'BFCL checks Java and JavaScript answers ',
      ],
      [
        'mixed.json: line 3 (multi_turn_base_1)',
        'not converted',
        'BFCL runs these categories against its o',
      ],
      [
        'mixed.json: line 4 (simple_python_9)',
        'not converted',
        '2 user turns: BFCL checks multi-turn que',
      ],
      ['mixed.json: line 5 (simple_python_8)', 'not converted', 'no possible answer has this id'],
      [
        'mixed.json: line 6 (live_relevance_1-1-0)',
        'converted',
        'BFCL passes the answer when it calls any',
      ],
      [
        'answers.json: line 1 (simple_python_404)',
        'not converted',
        'a possible answer for a question the cat',
      ],
      ['(suite)', 'approximated', 'the model: BFCL evaluates the model you '],
    ]);
    // No function offered: no tools key, which the suite loader would refuse empty.
    expect(Object.hasOwn(suite, 'tools')).toBe(false);
    expect(casesOf(suite)).toEqual([
      {
        test_id: 'live_relevance_1-1-0',
        messages: [{ role: 'user', content: 'hi' }],
        expected_tool: '*',
        extra_arguments: 'ignore',
        multiple_calls: 'best',
      },
    ]);
  });

  it('the same input gives byte-identical output', () => {
    for (const file of ['BFCL_v4_parallel_multiple.json', 'BFCL_v4_live_multiple.json'])
      expect(toYaml(convert(file).suite)).toBe(toYaml(convert(file).suite));
  });
});

describe('calltape import bfcl, on bad input', () => {
  const bad = (text: string, answers?: string): string => {
    try {
      bfcl.convert(
        { path: 'BFCL_v4_simple.json', text },
        new Map(answers === undefined ? [] : [['answers', { path: 'pa.json', text: answers }]]),
        (path) => {
          throw new Error(`${path}: cannot read it: ENOENT`);
        },
      );
    } catch (error) {
      return (error as Error).message;
    }
    return 'converted';
  };
  const question = JSON.stringify({
    id: 'simple_0',
    question: [[{ role: 'user', content: 'hi' }]],
    function: [{ name: 'f', parameters: { type: 'dict', properties: {} } }],
  });

  it('names the file, the line and the JSON path', () => {
    expect(bad(`${question}\n{oops`)).toMatch(
      /^BFCL_v4_simple\.json: line 2: not JSON \(BFCL files hold one JSON object a line\): /,
    );
    expect(bad('[1]')).toBe('BFCL_v4_simple.json: line 1: $: expected an object');
    expect(bad('{"id": "simple_0", "question": "hi"}')).toBe(
      'BFCL_v4_simple.json: line 1: $.question: missing or not a list of turns',
    );
    expect(bad('{"id": "simple_0", "question": [[]], "function": [{"name": 3}]}')).toBe(
      'BFCL_v4_simple.json: line 1: $.function[0].name: missing or not a text',
    );
    expect(bad(question, '{"id": "simple_0", "ground_truth": [{"f": {"a": 1}}]}')).toBe(
      'pa.json: line 1: $.ground_truth[0].f.a: expected a list of acceptable values',
    );
    expect(bad(question, '{"id": "simple_0", "ground_truth": [{"f": {}, "g": {}}]}')).toBe(
      'pa.json: line 1: $.ground_truth[0]: expected an object with one key, the function name, holding its parameters',
    );
    expect(
      bad(
        question,
        '{"id": "simple_0", "ground_truth": []}\n{"id": "simple_0", "ground_truth": []}',
      ),
    ).toBe('pa.json: line 2: $.id: "simple_0" is answered twice (first at pa.json: line 1)');
  });

  it('without its possible answers it says where it looked and how to name them', () => {
    expect(bad(question)).toBe(
      'BFCL_v4_simple.json: its possible answers: possible_answer/BFCL_v4_simple.json: cannot read it: ENOENT; BFCL keeps them in possible_answer/BFCL_v4_simple.json beside the category file, or name the file with --answers',
    );
  });

  it('prototype keys are names like any other', () => {
    const { suite } = convertOne(
      'simple_0',
      {
        name: '__proto__',
        parameters: {
          type: 'dict',
          properties: { constructor: { type: 'string' }, __proto__: { type: 'integer' } },
        },
      },
      [JSON.parse('{"__proto__": {"constructor": ["x"], "__proto__": [1, ""]}}') as object],
    );
    const first = casesOf(suite)[0] as { arguments: object; rules: object };
    expect(Object.getPrototypeOf(first.arguments)).toBe(Object.prototype);
    expect(Object.keys(first.arguments)).toEqual(['constructor', '__proto__']);
    expect(JSON.stringify(first.rules)).toBe(
      '{"constructor":{"matching_strategy":"loose_string"},"__proto__":{"any_of":[1,{"$omitted":true}]}}',
    );
  });

  it('property: no input crashes it; it converts or says where the input is wrong', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 3 }), fc.jsonValue(), (lines, answer) => {
        try {
          bfcl.convert(
            { path: 'f.json', text: lines.map((line) => JSON.stringify(line)).join('\n') },
            new Map([['answers', { path: 'a.json', text: JSON.stringify(answer) }]]),
          );
        } catch (error) {
          expect((error as Error).message).toMatch(/^(f|a)\.json: line \d+: /);
        }
      }),
    );
  });
});
