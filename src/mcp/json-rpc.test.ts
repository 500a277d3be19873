import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMessage } from './json-rpc.js';

describe('parseMessage', () => {
  it('tells requests, notifications and responses apart', () => {
    expect(parseMessage('{"jsonrpc":"2.0","id":1,"method":"tools/list"}')).toEqual({
      kind: 'request',
      id: 1,
      method: 'tools/list',
      params: undefined,
    });
    expect(
      parseMessage('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}'),
    ).toEqual({
      kind: 'notification',
      method: 'notifications/cancelled',
      params: { requestId: 1 },
    });
    expect(parseMessage('{"jsonrpc":"2.0","id":"a","result":{}}')).toEqual({
      kind: 'response',
      id: 'a',
      result: {},
      error: undefined,
    });
    expect(
      parseMessage('{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"nope"}}'),
    ).toEqual({
      kind: 'response',
      id: 2,
      result: undefined,
      error: { code: -32601, message: 'nope' },
    });
  });

  it('never takes an inherited property for a field', () => {
    expect(parseMessage('{"jsonrpc":"2.0","id":1}')).toEqual({ kind: 'other' });
    expect(parseMessage('{"__proto__":{"method":"x"},"id":1}')).toEqual({ kind: 'other' });
  });

  it('classifies any line without throwing', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (line) => void parseMessage(line)));
  });
});
