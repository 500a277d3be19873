import { describe, expect, it } from 'vitest';
import { chooseMcpAnswer } from './choose-mcp-answer.js';

describe('chooseMcpAnswer', () => {
  const mock = {
    tool: 'weather',
    when: [
      {
        arguments: { city: 'paris' },
        rules: { city: { matching_strategy: 'ignore_case' as const } },
        content: 'Sunny in {{args.city}}',
      },
    ],
    otherwise: { structuredContent: { temperature: 10 } },
  };

  it('answers the first when whose arguments match, with the scoring matchers', () => {
    expect(
      chooseMcpAnswer(mock, { name: 'weather', id: '1', arguments: { city: 'Paris' } }).result,
    ).toEqual({ content: [{ type: 'text', text: 'Sunny in Paris' }] });
  });

  it('falls back to otherwise, writing structured content as text too', () => {
    expect(
      chooseMcpAnswer(mock, { name: 'weather', id: '1', arguments: { city: 'Oslo' } }).result,
    ).toEqual({
      content: [{ type: 'text', text: '{"temperature":10}' }],
      structuredContent: { temperature: 10 },
    });
  });

  it('answers isError when nothing matches or a template names a missing argument', () => {
    expect(
      chooseMcpAnswer(
        { tool: 't', when: [{ arguments: { a: 1 }, content: 'x' }] },
        { name: 't', id: '1', arguments: { a: 2 } },
      ).result,
    ).toMatchObject({ isError: true });
    expect(
      chooseMcpAnswer({ tool: 't', content: '{{args.b}}' }, { name: 't', id: '1', arguments: {} })
        .result,
    ).toEqual({
      content: [{ type: 'text', text: 'calltape mock t: the call has no argument b' }],
      isError: true,
    });
  });

  it('answers from the session state and says what the call sets', () => {
    const stateful = {
      tool: 'get_order',
      set: { 'seen:{{args.id}}': true },
      when: [{ state: { 'status:{{args.id}}': 'cancelled' }, content: '{{args.id}} is cancelled' }],
      otherwise: { content: '{{args.id}} is {{state.status:{{args.id}}}}' },
    };
    const call = { name: 'get_order', id: '1', arguments: { id: 'A-17' } };
    const cancelled = chooseMcpAnswer(stateful, call, new Map([['status:A-17', 'cancelled']]));
    expect(cancelled.result).toEqual({ content: [{ type: 'text', text: 'A-17 is cancelled' }] });
    expect([...cancelled.changes]).toEqual([['seen:A-17', true]]);
    expect(chooseMcpAnswer(stateful, call, new Map()).result).toEqual({
      content: [{ type: 'text', text: 'A-17 is null' }],
    });
  });

  it('keeps content blocks and isError as written', () => {
    expect(
      chooseMcpAnswer(
        {
          tool: 't',
          content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }],
          isError: true,
        },
        { name: 't', id: '1', arguments: {} },
      ).result,
    ).toEqual({ content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }], isError: true });
  });
});
