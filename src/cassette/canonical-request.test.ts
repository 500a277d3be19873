import fc from 'fast-check';
import fastStableStringify from 'fast-json-stable-stringify';
import { describe, expect, it } from 'vitest';
import { awkwardJson } from '../../test/support/awkward-json.js';
import type { JsonValue } from '../trace/trace.js';
import {
  canonicalRequest,
  canonicalText,
  keyProfile,
  type MatchRules,
} from './canonical-request.js';
import { describeMismatch } from './describe-mismatch.js';

const rules: MatchRules = {
  ignorePaths: ['user', 'metadata', 'store', 'service_tier', 'messages[].name'],
  normalisers: ['iso-datetime', 'uuid'],
};
const text = (body: JsonValue, headers: Record<string, string> = {}, matchRules = rules): string =>
  canonicalText(canonicalRequest('post', '/v1/chat/completions', headers, body, matchRules));

describe('canonicalRequest', () => {
  it('ignores key order but never array order', () => {
    expect(text({ model: 'm', messages: [{ role: 'user', content: 'a' }] })).toBe(
      text({ messages: [{ content: 'a', role: 'user' }], model: 'm' }),
    );
    expect(text({ messages: [1, 2] })).not.toBe(text({ messages: [2, 1] }));
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        const reversed = Object.fromEntries(Object.entries(object).reverse());
        expect(text(object as JsonValue)).toBe(text(reversed as JsonValue));
      }),
    );
  });

  it('leaves out ignored paths, headers other than protocol versions, and host or auth', () => {
    const base = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    expect(
      text(
        {
          ...base,
          user: 'u1',
          metadata: { run: 1 },
          store: true,
          service_tier: 'flex',
          messages: [{ role: 'user', content: 'hi', name: 'bob' }],
        },
        { authorization: 'Bearer x', 'user-agent': 'a' },
      ),
    ).toBe(text(base));
    expect(text(base, { 'openai-beta': 'assistants=v2' })).not.toBe(text(base));
    expect(text(base, { 'anthropic-version': '2023-06-01' })).toContain(
      '"anthropic-version":"2023-06-01"',
    );
  });

  it('normalises dates, times and UUIDs in every string', () => {
    const at = (date: string, id: string): JsonValue => ({
      messages: [{ role: 'system', content: `Today is ${date}. Request ${id}.` }],
    });
    expect(text(at('2026-11-30T02:03:04Z', '0b1e4f5a-7c2d-4e8f-9a1b-2c3d4e5f6a7b'))).toBe(
      text(at('2027-01-02 10:00:00.5+01:00', 'ffffffff-7c2d-4e8f-9a1b-2c3d4e5f6a7b')),
    );
    expect(text(at('2026-11-30', 'x'))).toBe(text(at('1999-01-01', 'x')));
    expect(text(at('2026-11-30', 'x'), {}, { ...rules, normalisers: [] })).not.toBe(
      text(at('1999-01-01', 'x'), {}, { ...rules, normalisers: [] }),
    );
  });

  it('normalises a string exactly as running both expressions over it would (the skip of text without a dash loses nothing)', () => {
    const date =
      /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g;
    const uuid = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
    const fragment = fc.constantFrom(
      '2026',
      '-',
      '11',
      '30',
      'T',
      ':',
      '04',
      'Z',
      '+01:00',
      ' ',
      'x',
      '0b1e4f5a',
      '7c2d',
      '2c3d4e5f6a7b',
      '.5',
    );
    fc.assert(
      fc.property(
        fc.array(fragment, { maxLength: 14 }).map((parts) => parts.join('')),
        (content) => {
          const expected = content.replace(date, '<datetime>').replace(uuid, '<uuid>');
          expect(text({ content })).toBe(
            text({ content: expected }, {}, { ...rules, normalisers: [] }),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('numbers tool-call ids by first appearance when asked', () => {
    const conversation = (first: string, second: string, answeredFirst = first): JsonValue => ({
      messages: [
        {
          role: 'assistant',
          tool_calls: [
            { id: first, function: { name: 'a' } },
            { id: second, function: { name: 'b' } },
          ],
        },
        { role: 'tool', tool_call_id: answeredFirst, content: `result of ${answeredFirst}` },
        { role: 'tool', tool_call_id: answeredFirst === first ? second : first, content: 'ok' },
      ],
    });
    const withIds: MatchRules = { ignorePaths: [], normalisers: ['tool-call-ids'] };
    expect(text(conversation('call_AAAAAAAA', 'call_BBBBBBBB'), {}, withIds)).toBe(
      text(conversation('call_XXXXXXXX', 'call_YYYYYYYY'), {}, withIds),
    );
    // Results answering the calls in another order are a different conversation.
    expect(text(conversation('call_AAAAAAAA', 'call_BBBBBBBB'), {}, withIds)).not.toBe(
      text(conversation('call_AAAAAAAA', 'call_BBBBBBBB', 'call_BBBBBBBB'), {}, withIds),
    );
    expect(text(conversation('call_AAAAAAAA', 'call_BBBBBBBB'), {}, withIds)).toContain(
      'result of <tool-call-1>',
    );
  });

  it('applies custom regex normalisers', () => {
    const custom: MatchRules = {
      ignorePaths: [],
      normalisers: [{ pattern: 'order #\\d+', flags: 'i', replacement: 'order #N' }],
    };
    expect(text({ content: 'Order #123 shipped' }, {}, custom)).toBe(
      text({ content: 'order #9 shipped' }, {}, custom),
    );
  });

  it('versions the key profile by the rules', () => {
    expect(keyProfile(rules)).toBe(keyProfile({ ...rules }));
    expect(keyProfile(rules)).not.toBe(keyProfile({ ...rules, normalisers: [] }));
  });
});

describe('describeMismatch', () => {
  const request = (content: string, model = 'gpt-4o-mini', tools: JsonValue = []) =>
    canonicalRequest(
      'POST',
      '/v1/chat/completions',
      {},
      {
        model,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content },
        ],
        tools,
      },
      rules,
    );

  it('names the first differing part, model before messages before tools', () => {
    expect(
      describeMismatch(request('Weather in Paris?'), request('Weather in Paris?')),
    ).toBeUndefined();
    const drifted = describeMismatch(request('Weather in Paris?'), request('Weather in Pariss?'));
    expect(drifted?.field).toBe('messages[1].content');
    expect(drifted?.lines).toEqual([
      'messages[1].content: "Weather in Paris?" → "Weather in Pariss?"',
    ]);
    expect(describeMismatch(request('a', 'm1', [{ x: 1 }]), request('b', 'm2', []))?.field).toBe(
      'model',
    );
    expect(describeMismatch(request('a', 'm', [{ x: 1 }]), request('a', 'm', []))?.lines).toEqual([
      'tools[0]: {"x":1} → (absent)',
    ]);
  });
});

describe('canonicalText', () => {
  // Every recorded cassette's keys are hashes of this text: it must stay byte for byte what
  // fast-json-stable-stringify, which wrote them, writes (issue 21 swapped the library; the
  // stringifier's own cases are in src/stable-stringify.test.ts).
  it('is the text fast-json-stable-stringify wrote, for every JSON value', () => {
    fc.assert(
      fc.property(awkwardJson, fc.dictionary(fc.string(), fc.string()), (body, headers) => {
        const request = { method: 'POST', path: '/v1/x?a=1', headers, body: body as JsonValue };
        // As parsed from the wire, too: an own `__proto__` key is data then, not the prototype.
        const parsed = JSON.parse(JSON.stringify(request)) as typeof request;
        for (const each of [request, parsed])
          expect(canonicalText(each)).toBe(fastStableStringify(each));
      }),
      { numRuns: 1000 },
    );
  });

  it("gives the key profile the old library's text, so no cassette is re-keyed", () => {
    expect(keyProfile(rules)).toBe(
      `v1 ${fastStableStringify({ ignorePaths: rules.ignorePaths, normalisers: rules.normalisers })}`,
    );
  });
});

describe('match.azureApiVersion', () => {
  const pathOf = (path: string, matchRules: MatchRules = rules): string =>
    canonicalRequest('POST', path, {}, {}, matchRules).path;

  it("leaves an Azure route's api-version out of the key by default, the rest of the query kept", () => {
    expect(pathOf('/openai/deployments/d/chat/completions?api-version=2024-10-21')).toBe(
      '/openai/deployments/d/chat/completions',
    );
    expect(pathOf('/openai/v1/responses?API-Version=preview&key=REDACTED')).toBe(
      '/openai/v1/responses?key=REDACTED',
    );
    // Any version: the same key.
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-z-]{1,20}$/), (version) => {
        expect(pathOf(`/openai/v1/chat/completions?api-version=${version}`)).toBe(
          '/openai/v1/chat/completions',
        );
      }),
    );
  });

  it('keys the api-version when set to match, and leaves other routes as they always were', () => {
    expect(
      pathOf('/openai/v1/chat/completions?api-version=preview', {
        ...rules,
        azureApiVersion: 'match',
      }),
    ).toBe('/openai/v1/chat/completions?api-version=preview');
    // An OpenAI-compatible gateway's own api-version stays in the key.
    expect(pathOf('/v1/chat/completions?api-version=1')).toBe('/v1/chat/completions?api-version=1');
  });

  it('changes the key profile only when set to match, so existing cassettes are not re-keyed', () => {
    expect(keyProfile({ ...rules, azureApiVersion: 'ignore' })).toBe(keyProfile(rules));
    expect(keyProfile({ ...rules, azureApiVersion: 'match' })).not.toBe(keyProfile(rules));
  });
});
