import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SuiteCase } from '../scoring/suite-types.js';
import { caseLines, pendingCases } from './pending-listing.js';

const suiteText = [
  '# drafts from calltape generate',
  'name: bank',
  'cases:',
  '  - test_id: kept',
  '    prompt: what is my balance?',
  '    expected_tool: get_balance',
  '',
  '  # a comment between cases',
  '  - prompt: no id here',
  '    expected_tool: null',
  '  - test_id: "quoted"',
  '    review: pending',
].join('\n');

describe('caseLines', () => {
  it('finds the line each YAML case starts on, by id, naming a case without one as loadSuite does', () => {
    expect([...caseLines(suiteText, 'yaml')]).toEqual([
      ['kept', 4],
      ['case-2', 9],
      ['quoted', 11],
    ]);
  });

  it('reads JSON suites through the same ranges', () => {
    const json = JSON.stringify(
      { cases: [{ test_id: 'a' }, { test_id: 'b', prompt: 'x' }] },
      null,
      2,
    );
    expect([...caseLines(json, 'yaml')]).toEqual([
      ['a', 3],
      ['b', 6],
    ]);
  });

  it('counts JSON lines, skipping the settings line and blank lines', () => {
    const text = [
      '{"suite": {"name": "s"}}',
      '{"test_id": "a"}',
      '',
      '{"prompt": "p"}',
      'not json',
    ].join('\n');
    expect([...caseLines(text, 'jsonl')]).toEqual([
      ['a', 2],
      ['case-2', 4],
      ['case-3', 5],
    ]);
  });

  it('gives no lines for a file without a cases list (loadSuite reports that one)', () => {
    expect(caseLines('name: x\n', 'yaml').size).toBe(0);
    expect(caseLines('cases: 3\n', 'yaml').size).toBe(0);
    expect(caseLines(': [\n', 'yaml').size).toBe(0);
  });

  it('puts every case on the line it was written on, whatever comments and blank lines come before', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(3), { minLength: 8, maxLength: 8 }),
        (ids, gaps) => {
          const lines = ['cases:'];
          const expected: [string, number][] = [];
          ids.forEach((id, index) => {
            for (let gap = 0; gap < (gaps[index] ?? 0); gap += 1)
              lines.push(gap % 2 === 0 ? '' : '  # note');
            lines.push(`  - test_id: ${id}`, `    prompt: ask ${id}`);
            expected.push([id, lines.length - 1]);
          });
          expect([...caseLines(lines.join('\n'), 'yaml')]).toEqual(expected);
        },
      ),
    );
  });
});

const draft = (fields: Partial<SuiteCase> & { test_id: string }): SuiteCase =>
  ({ review: 'pending', ...fields }) as SuiteCase;

describe('pendingCases', () => {
  it('lists pending drafts with their expectation, provenance and file:line, leaving rejected ones out', () => {
    const drafts = [
      draft({
        test_id: 'g1',
        prompt: 'find my rent payments',
        expected_tool: 'search_transactions',
        provenance: {
          source: 'generated',
          tool: 'search_transactions',
          kind: 'positive',
          guideline: 'use it to look up past payments',
          topic: 'rent',
          generator: 'gpt-test',
        },
      }),
      draft({ test_id: 'rejected', review: 'rejected', prompt: 'x' }),
      draft({
        test_id: 'p1',
        prompt: 'send 25000',
        never: ['transfer_money'],
        provenance: {
          source: 'promoted',
          session: 'during',
          failures: ['transfer-limits: amount is 25000, above the maximum 10000'],
        },
      }),
      draft({ test_id: 'far', prompt: 'elsewhere', expected_tool: null }),
    ];
    const listed = pendingCases(
      drafts,
      new Map([
        ['g1', 12],
        ['p1', 30],
      ]),
      'suites/bank.yaml',
    );
    expect(listed.map((item) => [item.id, item.kind, item.tool, item.location])).toEqual([
      ['g1', 'positive', 'search_transactions', 'suites/bank.yaml:12'],
      ['p1', 'negative', 'transfer_money', 'suites/bank.yaml:30'],
      // A case the line map does not know (the file changed between reads) still names its file.
      ['far', 'negative', null, 'suites/bank.yaml'],
    ]);
    expect(listed[0]?.provenance).toEqual({
      source: 'generated',
      guideline: 'use it to look up past payments',
      topic: 'rent',
      generator: 'gpt-test',
      session: null,
      failures: [],
    });
    expect(listed[0]?.expects).toBe('search_transactions');
    expect(listed[1]?.expects).toBe('never transfer_money');
    expect(listed[1]?.provenance.failures).toEqual([
      'transfer-limits: amount is 25000, above the maximum 10000',
    ]);
  });
});
