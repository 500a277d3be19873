import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import type { SourceFile } from '../import-types.js';
import { importerOf } from '../importers.js';

const fixture: SourceFile = {
  path: 'tool-call-accuracy.json',
  text: readFileSync(
    join(import.meta.dirname, '..', '__fixtures__', 'ragas', 'tool-call-accuracy.json'),
    'utf8',
  ),
};
const importer = importerOf('ragas');
if (!importer) throw new Error('the ragas importer is registered');
const ragas = importer;
const convert = (source: SourceFile, metric?: string) =>
  ragas.convert(source, new Map(metric ? [['metric', { path: 'metric.json', text: metric }]] : []));
const failure = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return 'converted';
};

describe('calltape import ragas, on the ToolCallAccuracy example', () => {
  it("the human messages become user turns; reference_tool_calls the whole conversation's expected calls, strict order as mode exact", () => {
    const { suite, notes } = convert(fixture);
    expect(suite['cases']).toEqual([
      {
        test_id: 'sample-1',
        turns: [
          { user: "What's the weather like in New York right now?" },
          { user: 'Can you translate that to Celsius?' },
        ],
        expect: {
          calls: [
            { tool: 'weather_check', arguments: { location: 'New York' } },
            { tool: 'temperature_conversion', arguments: { temperature_fahrenheit: 75 } },
          ],
          mode: 'exact',
        },
      },
    ]);
    // Ragas declares no tools: they are declared from the reference calls so direct mode offers them.
    expect(suite['tools']).toEqual([
      {
        type: 'function',
        function: {
          name: 'weather_check',
          parameters: { type: 'object', properties: { location: {} } },
        },
      },
      {
        type: 'function',
        function: {
          name: 'temperature_conversion',
          parameters: { type: 'object', properties: { temperature_fahrenheit: {} } },
        },
      },
    ]);
    expect(notes.map((note) => [note.outcome, note.item])).toEqual([
      ['approximated', '(no --metric)'],
      ['not converted', 'tool-call-accuracy.json: $[0].user_input'],
      ['converted', 'tool-call-accuracy.json: $[0]'],
      ['approximated', '(tools)'],
      ['not converted', '(suite)'],
    ]);
  });

  it('strict_order false becomes mode unordered; a one-message sample is a prompt; an empty reference forbids every call', () => {
    const any = convert(fixture, '{"strict_order": false}');
    expect(JSON.stringify(any.suite['cases'])).toContain('"mode":"unordered"');
    const lines: SourceFile = {
      path: 's.jsonl',
      text: [
        { user_input: [{ content: 'Hi', type: 'human' }], reference_tool_calls: [] },
        {
          user_input: [{ content: 'Find x', type: 'human' }],
          reference_tool_calls: [{ name: 'find', args: {} }],
          reference: 'x',
        },
      ]
        .map((sample) => JSON.stringify(sample))
        .join('\n'),
    };
    const { suite, notes } = convert(lines);
    expect(suite['cases']).toEqual([
      { test_id: 'sample-1', prompt: 'Hi', never: ['*'] },
      { test_id: 'sample-2', prompt: 'Find x', expect: { calls: ['find'], mode: 'exact' } },
    ]);
    expect(notes).toContainEqual(
      expect.objectContaining({ item: 's.jsonl: line 2.reference', outcome: 'not converted' }),
    );
  });

  it('the same input gives byte-identical output', () => {
    expect(toYaml(convert(fixture).suite)).toBe(toYaml(convert(fixture).suite));
  });

  it('hostile input names the file and the field; __proto__ arguments stay own keys', () => {
    expect(failure(() => convert({ path: 's.json', text: '{"user_input": 3}' }))).toBe(
      's.json: $.user_input: missing, or not a list of messages (human, ai, tool) nor a text: this is not a Ragas sample',
    );
    expect(
      failure(() =>
        convert({ path: 's.json', text: '[{"user_input": [{"type": "robot", "content": ""}]}]' }),
      ),
    ).toBe('s.json: $[0].user_input[0].type: "robot" is not human, ai or tool');
    expect(
      failure(() => convert({ path: 's.jsonl', text: '{"user_input": "a"}\nnot json' })),
    ).toMatch(/^s\.jsonl: line 2: not JSON: /);
    expect(failure(() => convert(fixture, '{"strict_order": "yes"}'))).toBe(
      'metric.json: $.strict_order: expected true or false',
    );
    const { suite } = convert({
      path: 's.json',
      text: '{"user_input": "go", "reference_tool_calls": [{"name": "t", "args": {"__proto__": {"x": 1}}}]}',
    });
    expect(JSON.stringify(suite['cases'])).toContain('"arguments":{"__proto__":{"x":1}}');
  });
});
