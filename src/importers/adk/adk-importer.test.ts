import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import type { SourceFile } from '../import-types.js';
import { importerOf } from '../importers.js';

const fixtures = join(import.meta.dirname, '..', '__fixtures__', 'adk');
const read = (path: string): SourceFile => ({
  path,
  text: readFileSync(join(fixtures, path), 'utf8'),
});
const adk = importerOf('adk');
if (!adk) throw new Error('the adk importer is registered');
const convert = (path: string, config?: string) =>
  adk.convert(read(path), new Map(config ? [['test_config.json', read(config)]] : []));

describe('calltape import adk, on ADK samples', () => {
  it('an EvalSet: invocations become turns, tool_uses per-turn expectations (EXACT → exact, arguments exact)', () => {
    const { suite, notes } = convert(
      'evalset/dependent_tool_calls.test.json',
      'evalset/test_config.json',
    );
    expect(suite['cases']).toEqual([
      {
        test_id:
          'tests/integration/fixture/home_automation_agent/test_files/dependent_tool_calls.test.json',
        turns: [
          {
            user: 'Turn off device_2 in the Bedroom.',
            expect: {
              calls: [
                {
                  tool: 'set_device_info',
                  arguments: { location: 'Bedroom', status: 'OFF', device_id: 'device_2' },
                  extra_arguments: 'fail',
                },
              ],
              mode: 'exact',
            },
          },
          {
            user: "What's the status of device_2 in the Bedroom?",
            expect: {
              calls: [
                {
                  tool: 'get_device_info',
                  arguments: { device_id: 'device_2' },
                  extra_arguments: 'fail',
                },
              ],
              mode: 'exact',
            },
          },
        ],
      },
    ]);
    expect(
      notes.filter((note) => note.outcome === 'not converted').map((note) => note.item),
    ).toEqual([
      'evalset/dependent_tool_calls.test.json: $.eval_cases[0].conversation[0].final_response',
      'evalset/dependent_tool_calls.test.json: $.eval_cases[0].conversation[1].final_response',
      '(suite)',
    ]);
  });

  it('the legacy list is one conversation; response_match_score is said not to convert, never dropped silently', () => {
    const { suite, notes } = convert(
      'legacy/dependent_tool_calls.test.json',
      'legacy/test_config.json',
    );
    expect(suite['name']).toBe('dependent_tool_calls');
    const cases = suite['cases'] as { test_id: string; turns: { user: string }[] }[];
    expect(cases.map((item) => [item.test_id, item.turns.map((turn) => turn.user)])).toEqual([
      [
        'dependent_tool_calls',
        ['Turn off device_2 in the Bedroom.', "What's the status of device_2 in the Bedroom?"],
      ],
    ]);
    expect(notes).toContainEqual({
      item: 'legacy/test_config.json: criteria.response_match_score',
      outcome: 'not converted',
      detail: expect.stringContaining('ROUGE-1') as unknown as string,
    });
    expect(notes).toContainEqual(
      expect.objectContaining({
        item: 'legacy/dependent_tool_calls.test.json: $[1].reference',
        outcome: 'not converted',
      }),
    );
  });

  it('a conversation scenario: the starting prompt is the first turn, the plan the simulated user goal, the simulator settings its model and turns', () => {
    const { suite, notes } = convert(
      'scenario/conversation_scenario.test.json',
      'scenario/test_config.json',
    );
    expect(suite['cases']).toEqual([
      {
        test_id: 'CS-1',
        turns: [{ user: 'Hello' }],
        user: { goal: 'Ask the agent to do something', max_turns: 10, model: 'gemini-2.5-flash' },
      },
    ]);
    expect(notes.map((note) => [note.outcome, note.item])).toEqual([
      ['not converted', 'scenario/test_config.json: criteria.hallucinations_v1'],
      [
        'converted',
        'scenario/conversation_scenario.test.json: $.eval_cases[0].conversation_scenario.starting_prompt',
      ],
      [
        'converted',
        'scenario/conversation_scenario.test.json: $.eval_cases[0].conversation_scenario.conversation_plan',
      ],
      ['converted', 'test_config.json: user_simulator_config'],
      ['not converted', '(suite)'],
    ]);
  });

  it('match types map onto expect modes; a threshold below 1 becomes a mean-score gate; final_response_match_v2 a judge', () => {
    const config = (criteria: object): SourceFile => ({
      path: 'test_config.json',
      text: JSON.stringify({ criteria }),
    });
    const source = read('evalset/dependent_tool_calls.test.json');
    const modes = (['EXACT', 'IN_ORDER', 'ANY_ORDER'] as const).map((type) => {
      const { suite } = adk.convert(
        source,
        new Map([
          [
            'test_config.json',
            config({ tool_trajectory_avg_score: { threshold: 1, match_type: type } }),
          ],
        ]),
      );
      return (suite['cases'] as { turns: { expect: { mode: string } }[] }[])[0]?.turns[0]?.expect
        .mode;
    });
    expect(modes).toEqual(['exact', 'ordered', 'all']);
    const { suite, notes } = adk.convert(
      source,
      new Map([
        [
          'test_config.json',
          config({ tool_trajectory_avg_score: 0.5, final_response_match_v2: 0.8 }),
        ],
      ]),
    );
    expect(suite['gates']).toEqual({ mean_score: 0.5 });
    expect(JSON.stringify(suite['cases'])).toContain('"judge":{"rubric":"In each turn');
    expect(notes.filter((note) => note.outcome === 'approximated')).toHaveLength(4);
  });

  it('the same input gives byte-identical output', () => {
    const once = toYaml(
      convert('evalset/dependent_tool_calls.test.json', 'evalset/test_config.json').suite,
    );
    const again = toYaml(
      convert('evalset/dependent_tool_calls.test.json', 'evalset/test_config.json').suite,
    );
    expect(again).toBe(once);
  });

  it('bad input names the file and the JSON path', () => {
    const bad = (text: string): string => {
      try {
        adk.convert({ path: 'x.evalset.json', text }, new Map());
      } catch (error) {
        return (error as Error).message;
      }
      return 'converted';
    };
    expect(bad('{"name": "Asset reporter", "test_cases": []}')).toMatch(
      /^x\.evalset\.json: \$\.eval_cases: missing or not a list/,
    );
    // A stranger's mistake: naming the criteria file beside the eval set.
    expect(bad('{"criteria": {"tool_trajectory_avg_score": 1.0}}')).toContain(
      'it looks like a test_config.json, which is read from beside the eval set',
    );
    expect(
      bad(
        '{"eval_set_id": "s", "eval_cases": [{"eval_id": "a", "conversation": [{"intermediate_data": {"tool_uses": [{"args": {}}]}}]}]}',
      ),
    ).toBe(
      'x.evalset.json: $.eval_cases[0].conversation[0].intermediate_data.tool_uses[0].name: missing or not a text',
    );
    expect(
      bad('[{"query": "hi", "expected_tool_use": [{"tool_name": "t", "tool_input": 3}]}]'),
    ).toBe('x.evalset.json: $[0].expected_tool_use[0].tool_input: expected an object of arguments');
    expect(bad('{oops')).toMatch(/^x\.evalset\.json: not JSON: /);
    expect(() =>
      adk.convert(
        read('evalset/dependent_tool_calls.test.json'),
        new Map([
          [
            'test_config.json',
            {
              path: 'test_config.json',
              text: '{"criteria": {"tool_trajectory_avg_score": {"threshold": 1, "match_type": "SOMETIMES"}}}',
            },
          ],
        ]),
      ),
    ).toThrow(
      'test_config.json: $.criteria.tool_trajectory_avg_score.match_type: expected EXACT, IN_ORDER or ANY_ORDER',
    );
  });

  it('property: no input crashes it; it converts or says where the input is wrong', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        try {
          adk.convert({ path: 'f.json', text: JSON.stringify(value) }, new Map());
        } catch (error) {
          expect((error as Error).message).toMatch(/^f\.json: \$/);
        }
      }),
    );
  });
});

describe('an imported suite', () => {
  it("loads with calltape test's loader, turns and all", async () => {
    const { writeFileSync } = await import('node:fs');
    const { temporaryFolder } = await import('../../../test/support/test-proxy.js');
    const { loadSuite } = await import('../../suites/load-suite.js');
    const folder = temporaryFolder();
    for (const [name, path, config] of [
      ['evalset.yaml', 'evalset/dependent_tool_calls.test.json', 'evalset/test_config.json'],
      ['legacy.yaml', 'legacy/dependent_tool_calls.test.json', 'legacy/test_config.json'],
      ['scenario.yaml', 'scenario/conversation_scenario.test.json', 'scenario/test_config.json'],
    ] as const) {
      writeFileSync(join(folder, name), toYaml(convert(path, config).suite, { lineWidth: 0 }));
      const suite = loadSuite(join(folder, name), folder);
      expect(suite.cases.length).toBe(1);
      expect(suite.cases[0]?.turns?.length).toBeGreaterThan(0);
    }
  });
});
