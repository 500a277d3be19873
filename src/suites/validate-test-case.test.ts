import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { validateTestCase } from './validate-test-case.js';

const folder = temporaryFolder();
const file = join(folder, 'refunds.json');
writeFileSync(join(folder, 'policy.mjs'), 'export function judge() { return { pass: true }; }');
const problem = (value: unknown, index = 0): string => {
  try {
    validateTestCase(value, { file, index });
  } catch (error) {
    return (error as Error).message;
  }
  return 'valid';
};

describe('validateTestCase', () => {
  it('accepts trajectory checks alone, with call expectations, or beside a ground-truth call', () => {
    const full = {
      test_id: 'TC-7',
      expected_tool: 'issue_refund',
      arguments: { amount: 20 },
      expect: {
        calls: ['search_kb', { tool: 'issue_refund', arguments: { amount: 20 }, times: 1 }],
        mode: 'ordered',
        unlisted: 'fail',
        before: [['search_kb', 'issue_refund']],
        max_steps: 6,
        max_rounds: 4,
        max_calls_per_tool: { search_kb: 2 },
        max_repeats: 2,
      },
      never: [
        'send_email',
        {
          tool: 'issue_refund',
          arguments: { amount: 500 },
          rules: { amount: { matching_strategy: 'numeric', tolerance: 100 } },
        },
      ],
      judge: [{ code: './policy.mjs', timeout_ms: 1000 }, { rubric: 'Polite and correct.' }],
    };
    expect(problem(full)).toBe('valid');
    expect(problem({ never: ['send_email'] })).toBe('valid');
  });

  it('names the file, the case and the field of every mistake', () => {
    expect(problem({ test_id: 'TC-7', expect: { calls: ['a'], mode: 'in-order' } })).toBe(
      `${file}: case "TC-7": expect.mode: must be one of ["all","any","ordered","exact","never","subset","superset","unordered"] (got "in-order")`,
    );
    expect(problem({ expect: { calls: [{ toool: 'a' }] } }, 2)).toBe(
      `${file}: case #3: expect.calls[0].toool: unknown field (did you mean tool?)`,
    );
    expect(problem({ expect: { max_stepz: 3 } })).toBe(
      `${file}: case #1: expect.max_stepz: unknown field (did you mean max_steps?)`,
    );
    expect(problem({ never: [{ tool: 'a', times: 0 }] })).toBe(
      `${file}: case #1: never[0].times: must be >= 1 (got 0)`,
    );
    expect(problem({ judge: { code: './missing.mjs' } })).toBe(
      `${file}: case #1: judge.code: no such file ${join(folder, 'missing.mjs')}`,
    );
    expect(
      problem({ expect: { calls: [{ tool: 'a', min: 3, max: 2 }], min_steps: 4, max_steps: 1 } }),
    ).toBe(
      `${file}: case #1: expect.calls[0].min: 3 is above max 2\n${file}: case #1: expect.min_steps: 4 is above max_steps 1`,
    );
    expect(problem({ prompt: 'nothing to check' })).toBe(
      `${file}: case #1: (case): needs expected_tool, expected_calls, expect, never, judge or turns`,
    );
  });

  it('accepts a conversation: turns with their own expectations, beside case-level checks', () => {
    expect(
      problem({
        test_id: 'refund',
        turns: [
          { user: 'I want a refund', never: ['issue_refund'] },
          { user: 'A-17', expected_tool: 'get_order', arguments: { id: 'A-17' } },
          { user: 'thanks' },
          { user: 'yes', expect: { calls: ['issue_refund'], max_rounds: 3 } },
        ],
        expect: { before: [['get_order', 'issue_refund']], max_user_turns: 4 },
      }),
    ).toBe('valid');
    expect(problem({ turns: [{ user: 'hi' }] })).toBe('valid');
  });

  it('refuses prompt or messages beside turns, and names the turn and field of a mistake in one', () => {
    expect(problem({ test_id: 'C', prompt: 'hi', turns: [{ user: 'hi' }] })).toBe(
      `${file}: case "C": turns: a case has prompt or turns, not both (turns are the conversation's user messages)`,
    );
    expect(problem({ test_id: 'C', messages: [], turns: [{ user: 'hi' }] })).toBe(
      `${file}: case "C": turns: a case has messages or turns, not both (turns are the conversation's user messages)`,
    );
    expect(problem({ turns: [{ user: 'a' }, { user: 'b', expect: { max_stepz: 1 } }] })).toBe(
      `${file}: case #1: turns[1].expect.max_stepz: unknown field (did you mean max_steps?)`,
    );
    expect(problem({ turns: [{ user: 'a', expectd_tool: 'x' }] })).toBe(
      `${file}: case #1: turns[0].expectd_tool: unknown field (did you mean expected_tool?)`,
    );
    expect(problem({ turns: [{ expected_tool: 'x' }] })).toMatch(
      /turns\[0\]: must have required property 'user'/,
    );
    expect(problem({ turns: [{ user: 'a', expect: { min_steps: 3, max_steps: 1 } }] })).toBe(
      `${file}: case #1: turns[0].expect.min_steps: 3 is above max_steps 1`,
    );
  });
});
