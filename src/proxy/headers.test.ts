import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentResponseHeaders, upstreamRequestHeaders } from './headers.js';

const name = fc.stringMatching(/^x-[a-z]{1,6}$/);
const value = fc.stringMatching(/^[a-z0-9]{0,8}$/);

describe('upstreamRequestHeaders', () => {
  it('forwards what the agent sent minus hop-by-hop headers, calltape’s own and what undici sets', () => {
    expect(
      upstreamRequestHeaders({
        host: '127.0.0.1:4545',
        connection: 'keep-alive',
        'keep-alive': 'timeout=5',
        'content-length': '12',
        'transfer-encoding': 'chunked',
        'x-calltape-session': 's1',
        'x-calltape-mocks': 'none',
        authorization: 'Bearer sk-test',
        'x-stainless-lang': 'js',
        'set-cookie': ['a=1', 'b=2'],
      }),
    ).toEqual({
      authorization: 'Bearer sk-test',
      'x-stainless-lang': 'js',
      'set-cookie': ['a=1', 'b=2'],
    });
  });

  it('drops every header the Connection header names, however it lists them (RFC 9110 §7.6.1)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { minLength: 1, maxLength: 5 }),
        fc.uniqueArray(name, { maxLength: 5 }),
        fc.constantFrom('single', 'comma'),
        value,
        (listed, others, form, headerValue) => {
          const kept = others.filter((other) => !listed.includes(other));
          const tokens = listed.map((token, at) => (at % 2 === 0 ? token.toUpperCase() : token));
          const connection =
            form === 'comma' || tokens.length > 1 ? ` ${tokens.join(' , ')},` : ` ${tokens[0]} `;
          const headers = Object.fromEntries(
            [...listed, ...kept].map((header) => [header, headerValue]),
          );
          expect(upstreamRequestHeaders({ ...headers, connection })).toEqual(
            Object.fromEntries(kept.map((header) => [header, headerValue])),
          );
        },
      ),
    );
  });

  it('drops a header named by a lone Connection token that is not hop-by-hop (`close`)', () => {
    expect(upstreamRequestHeaders({ connection: 'Close', close: 'x', accept: '*/*' })).toEqual({
      accept: '*/*',
    });
  });
});

describe('agentResponseHeaders', () => {
  it('relays the upstream’s headers minus hop-by-hop ones, and marks a stream unbuffered', () => {
    expect(
      agentResponseHeaders({
        'content-type': 'text/event-stream',
        connection: 'keep-alive, x-upstream-hop',
        'x-upstream-hop': '1',
        'keep-alive': 'timeout=5',
        'x-request-id': 'req_1',
      }),
    ).toEqual({
      'content-type': 'text/event-stream',
      'x-request-id': 'req_1',
      'x-accel-buffering': 'no',
    });
    expect(agentResponseHeaders({ 'content-type': 'application/json', date: 'd' })).toEqual({
      'content-type': 'application/json',
      date: 'd',
    });
  });
});
