import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capturedChatRound } from '../../test/support/captured-round.js';
import { openAiChatAdapter } from '../providers/openai-chat/openai-chat-adapter.js';
import { buildExchange } from './build-exchange.js';
import { buildStoredExchange } from './build-stored-exchange.js';
import type { CapturedRound } from './captured-round.js';
import { findLeakedSecret } from './find-leaked-secret.js';
import { createRedactor } from './redact.js';

const encoder = new TextEncoder();
const secret = 'SECRET-0123456789';
/** The secret as JSON escapes: in the parsed trace, never in the bytes. */
const escaped = '\\u0053ECRET-0123456789';
/** Redacts nothing, so whatever a round holds reaches the exchange and the check sees it. */
const nothing = createRedactor([], [], false);

const round = capturedChatRound;

const answer = (content: string): string =>
  JSON.stringify({
    id: 'c1',
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content } }],
  });

function leakIn(
  captured: CapturedRound,
  canonical?: (body: unknown) => string,
): string | undefined {
  const exchange = buildExchange(
    openAiChatAdapter,
    nothing,
    captured,
    canonical &&
      ((body) => ({ key: 'k', profile: 'p', canonical: canonical(body), ordinal: 0, scope: '' })),
  );
  return findLeakedSecret(exchange, [secret]);
}

describe('findLeakedSecret', () => {
  it('finds nothing in a clean exchange, and never looks for values too short to redact', () => {
    expect(leakIn(round())).toBeUndefined();
    const exchange = buildExchange(
      openAiChatAdapter,
      nothing,
      round({ responseBody: answer('hi') }),
    );
    expect(findLeakedSecret(exchange, ['hi'])).toBeUndefined();
  });

  it('names the first place that still holds the secret, each place as it is stored', () => {
    expect(leakIn(round({ path: `/v1/chat/completions?q=${secret}` }))).toBe('request path');
    expect(leakIn(round({ requestHeaders: { 'x-request-id': secret } }))).toBe('request headers');
    expect(
      leakIn(round({ requestBody: JSON.stringify({ model: 'm', messages: [], note: secret }) })),
    ).toBe('request body');
    expect(leakIn(round({ responseHeaders: { 'x-request-id': secret } }))).toBe('response headers');
    expect(leakIn(round({ responseBody: answer(`key ${secret}`) }))).toBe('response body');
    expect(leakIn(round({ agentRequest: `{"note":"${secret}"}` }))).toBe('agent view');
  });

  it('finds a secret in a compressed answer once decoded', () => {
    const gzipped = gzipSync(encoder.encode(answer(`key ${secret}`)));
    expect(
      leakIn(round({ responseHeaders: { 'content-encoding': 'gzip' }, responseBody: gzipped })),
    ).toBe('response body');
  });

  it('finds a secret the bytes hold only as JSON escapes, where parsing them put it', () => {
    const body = `{"model":"m","messages":[{"role":"user","content":"${escaped}"}]}`;
    expect(leakIn(round({ requestBody: body }), (parsed) => JSON.stringify(parsed))).toBe(
      'canonical request',
    );
    expect(leakIn(round({ requestBody: body }))).toBe('trace');
    expect(leakIn(round({ responseBody: answer('x').replace('"x"', `"${escaped}"`) }))).toBe(
      'trace',
    );
  });

  it('finds a secret held by a key or a number of the trace, as its JSON text would show it', () => {
    const call = JSON.stringify({
      id: 'c1',
      model: 'm',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'f', arguments: `{"${escaped}":1}` },
              },
            ],
          },
        },
      ],
    });
    expect(leakIn(round({ responseBody: call }))).toBe('trace');
    const exchange = buildExchange(openAiChatAdapter, nothing, round({ startedAt: 1234567890123 }));
    expect(findLeakedSecret(exchange, ['4567890123'])).toBe('trace');
  });

  it('searches bytes exactly as their decoded text would be searched, for any bytes and secret (property)', () => {
    const clean = buildExchange(openAiChatAdapter, nothing, round());
    const stored = clean.response;
    if (!stored) throw new Error('the clean round has an answer');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ minLength: 8, maxLength: 12, unit: 'binary-ascii' }),
          fc.string({ minLength: 8, maxLength: 12, unit: 'binary' }),
        ),
        fc.uint8Array({ maxLength: 40 }),
        fc.uint8Array({ maxLength: 40 }),
        fc.boolean(),
        (value, before, after, holds) => {
          const middle = holds ? encoder.encode(value) : new Uint8Array();
          const body = new Uint8Array([...before, ...middle, ...after]);
          const exchange = { ...clean, response: { ...stored, body } };
          expect(findLeakedSecret(exchange, [value]) === 'response body').toBe(
            new TextDecoder().decode(body).includes(value),
          );
        },
      ),
    );
  });
});

describe('buildStoredExchange', () => {
  const key = 'sk-proj-STOREDstored0123456789abcdef';
  const limits = { maxDecodedBytes: 1024 * 1024 };
  const matchFor = () => ({ key: 'k', profile: 'p', canonical: '{}', ordinal: 0, scope: '' });

  it("builds what buildExchange builds, the agent's credential redacted", () => {
    const captured = round({
      requestHeaders: { authorization: `Bearer ${key}` },
      responseBody: answer(`use ${key}`),
    });
    const stored = buildStoredExchange(openAiChatAdapter, nothing, captured, matchFor, limits);
    expect(stored).toEqual(buildExchange(openAiChatAdapter, nothing, captured, matchFor, limits));
    expect(stored.interaction.response?.output.text).toBe('use [REDACTED:credential]');
  });

  it('refuses an exchange in which a credential the agent sent survived, naming where', () => {
    // Stored header values are kept as sent: an agent that puts its key in its user agent leaks it there.
    const captured = round({
      requestHeaders: { authorization: `Bearer ${key}`, 'user-agent': `agent/1 ${key}` },
    });
    expect(() =>
      buildStoredExchange(openAiChatAdapter, nothing, captured, matchFor, limits),
    ).toThrow(
      'refused to store POST /v1/chat/completions: a credential the agent sent appears in the request headers',
    );
  });
});
