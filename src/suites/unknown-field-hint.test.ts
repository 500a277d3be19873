import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { loadSuite } from './load-suite.js';

/** The message loadSuite refuses a suite with. */
function refusal(suite: object): string {
  const folder = temporaryFolder();
  writeFileSync(join(folder, 'suite.json'), JSON.stringify(suite));
  try {
    loadSuite('suite.json', folder);
  } catch (error) {
    return (error as Error).message.replaceAll(`${join(folder, 'suite.json')}: `, '');
  }
  return 'loaded';
}

describe('issue 31: an unknown suite field got no "did you mean", as cassette names do', () => {
  it('suggests the field a typo in a case was meant to be (expeted_tool → expected_tool)', () => {
    expect(refusal({ cases: [{ test_id: 'r', expeted_tool: 'issue_refund' }] })).toContain(
      'case "r": expeted_tool: unknown field (did you mean expected_tool?)',
    );
    expect(refusal({ cases: [{ test_id: 'r', expected_tool: 'a', argumnts: { id: 1 } }] })).toBe(
      'case "r": argumnts: unknown field (did you mean arguments?)',
    );
  });

  it('suggests at the suite level and inside nested settings, and keeps quiet when nothing is close', () => {
    expect(refusal({ cases: [], gatez: { pass_rate: 1 } })).toBe(
      'gatez: unknown field (did you mean gates?)',
    );
    expect(refusal({ cases: [], defaults: { extra_argument: 'ignore' } })).toBe(
      'defaults.extra_argument: unknown field (did you mean extra_arguments?)',
    );
    expect(refusal({ cases: [], zzzzzzzz: 1 })).toBe('zzzzzzzz: unknown field');
  });
});
