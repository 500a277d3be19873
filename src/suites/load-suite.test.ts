import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { loadSuite } from './load-suite.js';

const suiteWith = (ids: readonly string[], extra: object = {}): string => {
  const folder = temporaryFolder();
  writeFileSync(
    join(folder, 'suite.json'),
    JSON.stringify({
      model: 'm',
      cases: ids.map((test_id) => ({ test_id, prompt: 'hi', expected_tool: null })),
      ...extra,
    }),
  );
  return folder;
};

describe('loadSuite and repeats', () => {
  it('reads repeats and min_pass_rate, defaulting to one sample that must pass', () => {
    expect(loadSuite('suite.json', suiteWith(['a']))).toMatchObject({
      repeats: 1,
      min_pass_rate: 1,
    });
    expect(
      loadSuite('suite.json', suiteWith(['a'], { repeats: 5, min_pass_rate: 0.8 })),
    ).toMatchObject({ repeats: 5, min_pass_rate: 0.8 });
  });

  it('refuses a case id naming the session of another case’s sample (refund#2 beside refund)', () => {
    expect(() => loadSuite('suite.json', suiteWith(['refund', 'refund#2']))).toThrow(
      'case "refund#2" (#2): test_id: names the session of sample 2 of case "refund"',
    );
    // Alone, or with a # that is no sample ordinal, an id is fine.
    expect(() => loadSuite('suite.json', suiteWith(['TC#12', 'refund#1', 'refund']))).not.toThrow();
  });
});
