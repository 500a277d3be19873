import { describe, expect, it } from 'vitest';
import { canonicalMcpRequest, canonicalMcpText } from './mcp-request.js';
import { explainMcpMiss } from './nearest-mcp-recording.js';

const recorded = (id: string, name: string, args: object): { id: string; canonical: string } => ({
  id,
  canonical: canonicalMcpText(
    canonicalMcpRequest('tools/call', { name, arguments: args } as never),
  ),
});

describe('explainMcpMiss', () => {
  const candidates = [
    recorded('r1', 'add', { a: 2, b: 3 }),
    recorded('r2', 'search', { a: 2, b: 4 }),
  ];

  it('names the first differing argument of the nearest recording of the same tool', () => {
    const miss = explainMcpMiss(
      'calc',
      canonicalMcpRequest('tools/call', { name: 'add', arguments: { a: 2, b: 4 } }),
      0,
      candidates,
    );
    expect(miss).toMatchObject({ nearest: 'r1', field: 'arguments.b' });
    expect(miss.message).toContain('differs first at arguments.b: 3 → 4');
  });

  it('names the server a mistyped --name most likely meant (regression: a wrong name missed without a hint)', () => {
    const request = canonicalMcpRequest('tools/call', { name: 'add', arguments: { a: 1 } });
    const miss = explainMcpMiss('note', request, 0, [], ['calendar', 'notes']);
    expect(miss.message).toBe(
      'calltape replay: no recording of tools/call add on note: the cassette records no server of that name (it records calendar, notes); did you mean --name notes?',
    );
    // A name no recorded server is a typo of gets no guess.
    expect(explainMcpMiss('github', request, 0, [], ['calendar', 'notes']).message).toBe(
      'calltape replay: no recording of tools/call add on github',
    );
    // A server the cassette does record, with nothing of this method, gets no such guess.
    expect(explainMcpMiss('notes', request, 0, [], ['notes']).message).toBe(
      'calltape replay: no recording of tools/call add on notes',
    );
  });

  it('says a repeated request ran past its recordings', () => {
    expect(
      explainMcpMiss(
        'calc',
        canonicalMcpRequest('tools/call', { name: 'add', arguments: {} }),
        2,
        candidates,
      ).message,
    ).toBe('calltape replay: tools/call add on calc was recorded 2 time(s); this is call 3');
  });

  it('says when nothing of the method was recorded', () => {
    expect(
      explainMcpMiss('calc', canonicalMcpRequest('prompts/get', { name: 'p' }), 0, []).message,
    ).toBe('calltape replay: no recording of prompts/get p on calc');
  });

  it('ignores _meta and argument order in the canonical form', () => {
    const a = canonicalMcpText(
      canonicalMcpRequest('tools/call', {
        name: 'add',
        arguments: { a: 1, b: 2 },
        _meta: { progressToken: 5 },
      }),
    );
    const b = canonicalMcpText(
      canonicalMcpRequest('tools/call', { arguments: { b: 2, a: 1 }, name: 'add' }),
    );
    expect(a).toBe(b);
  });
});
