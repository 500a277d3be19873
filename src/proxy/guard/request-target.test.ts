import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestTargetRefusal, routeRefusal } from './request-target.js';

const plainSegment = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);

describe('requestTargetRefusal', () => {
  it('accepts origin-form paths of plain segments, with any query', () => {
    fc.assert(
      fc.property(fc.array(plainSegment, { maxLength: 6 }), fc.string(), (segments, query) => {
        expect(requestTargetRefusal(`/${segments.join('/')}?${query}`)).toBeUndefined();
      }),
    );
  });

  it('refuses a dot segment anywhere in the path, however it is encoded', () => {
    const dots = fc.constantFrom('..', '.', '%2e%2e', '%2E.', '.%2e', '%2e');
    fc.assert(
      fc.property(
        fc.array(plainSegment, { maxLength: 3 }),
        dots,
        fc.array(plainSegment, { maxLength: 3 }),
        (before, dot, after) => {
          expect(requestTargetRefusal(`/${[...before, dot, ...after].join('/')}`)).toContain(
            'segments',
          );
        },
      ),
    );
  });

  it('answers as checking every segment does, whatever the path holds (the shortcut for plain paths)', () => {
    const everySegment = (path: string): boolean =>
      path.split('/').some((segment) => {
        const decoded = segment.replace(/%2e/gi, '.');
        return decoded === '..' || decoded === '.' || /%2f|%5c|\\/i.test(segment);
      });
    const piece = fc.constantFrom('/', '.', '%', '2e', '2E', '2f', '5c', '\\', 'a', 'v1', '?');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        // `/x` first: the Bedrock model segment (`/model/{id}`) has its own rule, tested above.
        const url = `/x${pieces.join('')}`;
        const queryAt = url.indexOf('?');
        const path = queryAt === -1 ? url : url.slice(0, queryAt);
        expect(requestTargetRefusal(url) !== undefined).toBe(everySegment(path));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses absolute-form, asterisk, protocol-relative and encoded-slash targets', () => {
    for (const target of [
      'http://evil/v1/models',
      'https://x',
      '*',
      '//evil/v1',
      '/v1/a%2Fb',
      '/v1/a%5cb',
      '/v1/a\\b',
    ])
      expect(requestTargetRefusal(target), target).toBeDefined();
  });

  it('accepts a Bedrock model id that is an ARN, its slashes encoded, but no dot segment hidden in it', () => {
    expect(
      requestTargetRefusal(
        '/model/arn%3Aaws%3Abedrock%3Aeu-west-1%3A123456789012%3Ainference-profile%2Feu.anthropic.claude-sonnet-4-5/converse',
      ),
    ).toBeUndefined();
    for (const target of [
      '/model/x%2F..%2Fy/converse',
      '/model/x%2F%2e%2e/converse',
      '/model/x%5cy/converse',
      '/v1/model/a%2Fb/converse',
      '/model/a/b%2Fc',
    ])
      expect(requestTargetRefusal(target), target).toBeDefined();
  });

  it('accepts the ARN of an async invocation or a guardrail the same way, and no dot segment hidden in it', () => {
    for (const target of [
      '/async-invoke/arn%3Aaws%3Abedrock%3Aus-west-2%3A123456789012%3Aasync-invoke%2Fabc123',
      '/guardrail/arn%3Aaws%3Abedrock%3Aus-west-2%3A123456789012%3Aguardrail%2Fgr1/version/1/apply',
    ])
      expect(requestTargetRefusal(target), target).toBeUndefined();
    for (const target of [
      '/async-invoke/x%2F..%2Fy',
      '/guardrail/x%2F%2e%2e/version/1/apply',
      '/guardrail/a/version/b%2Fc/apply',
    ])
      expect(requestTargetRefusal(target), target).toBeDefined();
  });

  it('refuses a chosen cassette only while overrides are off', () => {
    expect(routeRefusal({ cassette: { name: 'x' }, path: '/v1/models' }, false)).toContain(
      'cassettes.allowRequestOverride',
    );
    expect(routeRefusal({ cassette: { name: 'x' }, path: '/v1/models' }, true)).toBeUndefined();
    expect(routeRefusal({ cassette: undefined, path: '/v1/models' }, false)).toBeUndefined();
  });
});
