import { describe, expect, it } from 'vitest';
import { joinMcpCalls, type ModelToolCall, type ServerToolCall } from './join-mcp-calls.js';

const model = (
  sessionId: string,
  startedAt: number,
  callId: string,
  name: string,
  args: object,
): ModelToolCall => ({ sessionId, startedAt, callId, name, argumentsJson: JSON.stringify(args) });
const server = (
  id: string,
  startedAt: number,
  subject: string,
  args: object,
  session = 'relay-run',
  sessionGiven = false,
): ServerToolCall => ({
  id,
  sessionId: session,
  sessionGiven,
  startedAt,
  subject,
  params: { name: subject, arguments: args } as never,
});

describe('joinMcpCalls', () => {
  it('issue-20: a model call with malformed arguments joins nothing instead of throwing', () => {
    const malformed: ModelToolCall = {
      sessionId: 's1',
      startedAt: 1,
      callId: 'c1',
      name: 'add',
      argumentsJson: '{"a": 1,',
    };
    expect(
      Object.fromEntries(joinMcpCalls([malformed], [server('m1', 10, 'add', { a: 1 })])),
    ).toEqual({ m1: { sessionId: 'relay-run', callId: null } });
  });

  it('joins each MCP call to the earliest unclaimed model call with the same name and arguments before it', () => {
    const joined = joinMcpCalls(
      [
        model('s1', 10, 'c1', 'notes__add', { b: 2, a: 1 }),
        model('s2', 20, 'c2', 'add', { a: 1, b: 2 }),
        model('s3', 5, 'c3', 'subtract', { a: 1 }),
      ],
      [
        server('m1', 12, 'add', { a: 1, b: 2 }),
        server('m2', 25, 'add', { a: 1, b: 2 }),
        server('m3', 30, 'add', { a: 1, b: 2 }),
      ],
    );
    expect(Object.fromEntries(joined)).toEqual({
      m1: { sessionId: 's1', callId: 'c1' },
      m2: { sessionId: 's2', callId: 'c2' },
      m3: { sessionId: 'relay-run', callId: null },
    });
  });

  it('never joins a call the model made later, nor a differently named tool sharing a suffix', () => {
    const joined = joinMcpCalls(
      [model('s1', 50, 'c1', 'add', {}), model('s2', 1, 'c2', 'badd', {})],
      [server('m1', 10, 'add', {})],
    );
    expect(joined.get('m1')).toEqual({ sessionId: 'relay-run', callId: null });
  });

  it('keeps a given session, matching only within it', () => {
    const joined = joinMcpCalls(
      [model('other', 1, 'c1', 'add', {}), model('mine', 2, 'c2', 'add', {})],
      [server('m1', 10, 'add', {}, 'mine', true)],
    );
    expect(joined.get('m1')).toEqual({ sessionId: 'mine', callId: 'c2' });
  });
});
