import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseAnswer } from '../../src/mocks/choose-answer.js';
import { loadMocks } from '../../src/mocks/load-mocks.js';
import type { MockSpec } from '../../src/mocks/mock-types.js';
import { matchValue } from '../../src/scoring/match/match-value.js';
import { maxPatternInputChars } from '../../src/scoring/match/user-pattern.js';
import { temporaryFolder } from '../support/test-proxy.js';

describe('user regexes', () => {
  it('a catastrophic pattern in a mock condition answers at once (linear-time engine), not after 2^n steps', () => {
    // With a backtracking engine this condition on 40 characters takes longer than any test timeout.
    const mock: MockSpec = { tool: 'lookup', when: [{ arguments: { id: '(a+)+$' }, rules: { id: { matching_strategy: 'regex' } }, result: 'matched' }], otherwise: { result: 'no match' } };
    const answer = chooseAnswer(mock, { id: 'c1', name: 'lookup', argumentsRaw: JSON.stringify({ id: `${'a'.repeat(40)}!` }) }, { session: 's', occurrence: 0 });
    expect(answer.result).toBe('no match');
    expect(chooseAnswer(mock, { id: 'c2', name: 'lookup', argumentsRaw: JSON.stringify({ id: 'aaaa' }) }, { session: 's', occurrence: 0 }).result).toBe('matched');
  });

  it('keeps JavaScript flag meanings and caps the input length', () => {
    expect(matchValue('regex', 'ab.c', 'AB\nC', { flags: 'is' }).matched).toBe(true);
    expect(matchValue('regex', 'ab.c', 'AB\nC', { flags: 'i' }).matched).toBe(false);
    const long = matchValue('regex', 'a*', 'a'.repeat(maxPatternInputChars + 1), {});
    expect([long.matched, long.detail]).toEqual([false, `the value is longer than ${maxPatternInputChars} characters, past what a pattern is run on`]);
  });

  it('refuses at load a pattern the engine cannot run, naming the file and field', () => {
    const folder = temporaryFolder();
    const file = join(folder, 'm.yaml');
    writeFileSync(file, 'mocks:\n  - tool: t\n    when:\n      - arguments: { a: "(?=x)x" }\n        rules: { a: { matching_strategy: regex } }\n        result: 1\n');
    expect(() => loadMocks([file], folder)).toThrow(/m\.yaml: mocks\[0\] \(t\): when\[0\]\.rules\.a: the regex does not compile: .*RE2 syntax/);
  });
});
