import { describe, expect, it } from 'vitest';
import { createRedactor } from '../cassette/redact.js';
import { parseMcpCallReport } from './mcp-call-report.js';

const redactor = createRedactor(
  [],
  [{ pattern: 'ACCT-\\d+', flags: '', replacement: 'ACCT-*' }],
  true,
);
const call = {
  id: 'c1',
  sessionId: 's1',
  sessionGiven: false,
  startedAt: 5,
  server: 'notes',
  subject: 'lookup',
  params: { name: 'lookup', arguments: { account: 'ACCT-123', token: 'abc' } },
  result: { content: [{ type: 'text', text: 'key sk-abcdefghijklmnopqrstuvwxyz012345' }] },
};

describe('parseMcpCallReport', () => {
  it("redacts what a relay reports with this side's patterns too (the relay's configuration may ask for less)", () => {
    const report = parseMcpCallReport(
      JSON.stringify({
        calls: [
          call,
          { ...call, id: 'c2', result: undefined, error: { code: -1, message: 'no ACCT-9' } },
        ],
      }),
      redactor,
    );
    expect(report).toEqual({
      calls: [
        {
          ...call,
          params: { name: 'lookup', arguments: { account: 'ACCT-*', token: 'REDACTED' } },
          result: { content: [{ type: 'text', text: 'key [REDACTED:openai-key]' }] },
          error: undefined,
        },
        {
          ...call,
          id: 'c2',
          params: { name: 'lookup', arguments: { account: 'ACCT-*', token: 'REDACTED' } },
          result: undefined,
          error: { code: -1, message: 'no ACCT-*' },
        },
      ],
    });
  });

  it('names the first thing wrong with a report', () => {
    expect(parseMcpCallReport('[]', redactor)).toEqual({ problem: '(body) must be object' });
    expect(parseMcpCallReport('{"calls":[{}]}', redactor)).toEqual({
      problem: "/calls/0 must have required property 'id'",
    });
    expect(
      parseMcpCallReport(JSON.stringify({ calls: [{ ...call, extra: 1 }] }), redactor),
    ).toEqual({ problem: '/calls/0 must NOT have additional properties' });
    expect(parseMcpCallReport('nope', redactor)).toEqual({ problem: 'the body is not JSON' });
  });
});
