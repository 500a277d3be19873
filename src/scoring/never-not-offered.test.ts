import { describe, expect, it } from 'vitest';
import { neverNotOffered } from './never-not-offered.js';

const offered = ['get_order', 'issue_refund', 'send_email'];

describe('issue 31: a never naming a tool the agent never offers passed silently', () => {
  it('flags a never entry that names no offered tool, with the nearest offered name', () => {
    expect(neverNotOffered(['send_emial'], offered, [])).toEqual([
      'never: send_emial names a tool this run never offered the model, so the check cannot fail (offered: get_order, issue_refund, send_email); did you mean send_email?',
    ]);
    expect(neverNotOffered([{ tool: ['delete_account', 'send_email'] }], offered, [])).toEqual([
      'never: delete_account names a tool this run never offered the model, so the check cannot fail (offered: get_order, issue_refund, send_email)',
    ]);
  });

  it('leaves alone an entry an offered tool or a call of the run matches (globs too)', () => {
    expect(neverNotOffered(['send_email', 'issue_*', { tool: 'get_order' }], offered, [])).toEqual(
      [],
    );
    // A tool the agent called without offering it to the model (an MCP call it made itself).
    expect(neverNotOffered(['notes__wipe'], offered, ['notes__wipe'])).toEqual([]);
    expect(neverNotOffered(undefined, offered, [])).toEqual([]);
  });
});
