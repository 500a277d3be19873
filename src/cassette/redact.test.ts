import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitBytes } from '../../test/support/split-bytes.js';
import { createRedactor } from './redact.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

describe('createRedactor', () => {
  it('drops secret headers, built-in and configured, case-insensitively', () => {
    const redactor = createRedactor(['X-Org-Token'], []);
    expect(redactor.headers({ Authorization: 'Bearer sk-x', 'x-api-key': 'k', 'api-key': 'a', cookie: 'c', 'x-org-token': 't', 'content-type': 'application/json', 'openai-beta': 'assistants=v2' })).toEqual({
      'content-type': 'application/json',
      'openai-beta': 'assistants=v2',
    });
  });

  it('redacts credential query parameters in paths, built-in and configured names', () => {
    const redactor = createRedactor(['X-Org-Token'], []);
    expect(redactor.path('/v1/chat/completions?api-version=2024-10-21&api-key=SECRET&KEY=s2&x-org-token=t&q=1')).toBe('/v1/chat/completions?api-version=2024-10-21&api-key=REDACTED&KEY=REDACTED&x-org-token=REDACTED&q=1');
    expect(redactor.path('/v1/models')).toBe('/v1/models');
  });

  it('replaces body patterns with group references expanded', () => {
    const redactor = createRedactor([], [{ pattern: '(?<key>user)=(\\w+)', flags: 'i', replacement: '$<key>=[REDACTED $$]' }]);
    expect(redactor.text('USER=bob and user=alice')).toBe('USER=[REDACTED $] and user=[REDACTED $]');
    const bytes = encoder.encode('USER=bob and user=alice');
    expect(decoder.decode(redactor.chunks(bytes, [3, bytes.length]).body)).toBe('USER=[REDACTED $] and user=[REDACTED $]');
  });

  it('keeps chunk boundaries meaningful after redaction, for any split', () => {
    const redactor = createRedactor([], [{ pattern: 'sk-[a-z0-9]{8,}', flags: '', replacement: '[KEY]' }]);
    const text = 'data: {"a":"sk-abcdef123456 ☃"}\n\ndata: {"b":"no secret 東京"}\n\ndata: {"c":"sk-zzzzzzzzzz"}\n\n';
    const bytes = encoder.encode(text);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => {
        const parts = splitBytes(bytes, cuts);
        let end = 0;
        const ends = parts.map((part) => (end += part.length));
        const result = redactor.chunks(bytes, ends);
        expect(decoder.decode(result.body)).toBe(text.replaceAll(/sk-[a-z0-9]{8,}/g, '[KEY]'));
        expect(result.chunkEnds.at(-1)).toBe(result.body.length);
        expect([...result.chunkEnds].sort((a, b) => a - b)).toEqual(result.chunkEnds);
      }),
    );
  });
});
