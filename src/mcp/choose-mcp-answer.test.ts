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
      chooseMcpAnswer(mock, { name: 'weather', id: '1', arguments: { city: 'Paris' } }),
    ).toEqual({ content: [{ type: 'text', text: 'Sunny in Paris' }] });
  });

  it('falls back to otherwise, writing structured content as text too', () => {
    expect(
      chooseMcpAnswer(mock, { name: 'weather', id: '1', arguments: { city: 'Oslo' } }),
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
      ),
    ).toMatchObject({ isError: true });
    expect(
      chooseMcpAnswer({ tool: 't', content: '{{args.b}}' }, { name: 't', id: '1', arguments: {} }),
    ).toEqual({
      content: [{ type: 'text', text: 'calltape mock t: the call has no argument b' }],
      isError: true,
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
      ),
    ).toEqual({ content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }], isError: true });
  });
});
