import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildExchange, buildInteraction } from './build-exchange.js';
import type { CapturedRound } from './captured-round.js';
import { createRedactor, type Redactor } from './redact.js';
import { adapterById } from '../providers/adapters.js';
import { capturedChatRound } from '../../test/support/captured-round.js';
import { readRecordedStream, recordedStreams } from '../../test/support/recorded-streams.js';
import { splitBytes } from '../../test/support/split-bytes.js';

const agentKey = 'sk-proj-ROUNDround0123456789abcdefABCDEF0123456789';
const redactor = createRedactor(
  ['x-extra-secret'],
  [{ pattern: 'acct-[0-9]{6}', flags: '', replacement: 'acct-REDACTED' }],
);
const limits = { maxDecodedBytes: 1024 * 1024 };
const completion = (content: string): string =>
  JSON.stringify({
    id: 'c1',
    model: 'm',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'lookup', arguments: JSON.stringify({ note: content }) },
            },
          ],
        },
        finish_reason: 'tool_calls',
      },
    ],
  });
const withKey = { authorization: `Bearer ${agentKey}` };

function streamed(round: CapturedRound, bytes: Uint8Array, cuts: readonly number[]): CapturedRound {
  const chunks = splitBytes(bytes, cuts);
  return {
    ...round,
    upstream: {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'set-cookie': 'session=abcdefghijk' },
      chunks,
      chunkTimes: chunks.map((_, index) => index),
      firstByteMs: 0,
      totalMs: chunks.length,
      ending: 'finished',
      errorMessage: undefined,
    },
  };
}

/** Rounds through every path of the exchange builder that shapes the trace. */
function rounds(): CapturedRound[] {
  const all: CapturedRound[] = [];
  for (const recorded of recordedStreams)
    for (const cuts of [[], [1, 2, 3, 50, 51, 400, 401]]) {
      const base = capturedChatRound({ requestHeaders: withKey });
      all.push(streamed({ ...base, adapterId: recorded.wire }, readRecordedStream(recorded), cuts));
    }
  all.push(
    // The agent's key and a configured pattern in the request, a credential in the query.
    capturedChatRound({
      requestHeaders: { ...withKey, 'x-extra-secret': 'extra-secret-value', cookie: 'a=b' },
      path: '/v1/chat/completions?key=AIzaSyROUNDround0123456789abcdefABCDE',
      requestBody: JSON.stringify({
        model: 'm',
        messages: [{ role: 'user', content: `key ${agentKey}, acct-123456, extra-secret-value` }],
      }),
    }),
    // The agent's key in the answer, split across chunks.
    streamed(
      capturedChatRound({ requestHeaders: withKey }),
      new TextEncoder().encode(completion(`use ${agentKey} for acct-654321`)),
      [30, 31, 90],
    ),
    // Compressed, with and without a secret.
    capturedChatRound({
      requestHeaders: withKey,
      responseHeaders: { 'content-encoding': 'gzip' },
      responseBody: gzipSync(completion(`gz ${agentKey}`)),
    }),
    capturedChatRound({
      responseHeaders: { 'content-encoding': 'gzip' },
      responseBody: gzipSync(completion('gz clean')),
    }),
    // The agent's view (mock tools), which the trace does not hold.
    capturedChatRound({ requestHeaders: withKey, agentRequest: `agent saw ${agentKey}` }),
    // An answer that is not JSON, and a round that never reached the upstream.
    capturedChatRound({ responseBody: 'not json' }),
    { ...capturedChatRound(), upstream: undefined, proxyError: { status: 400, message: 'bad' } },
  );
  all.push({
    ...capturedChatRound({ requestHeaders: withKey }),
    mocked: [
      {
        callId: 'call_1',
        name: 'lookup',
        set: 'mocks',
        content: `mocked ${agentKey}`,
        isError: false,
      },
    ],
    hidden: true,
  });
  return all;
}

function adapterOf(round: CapturedRound) {
  const adapter = adapterById(round.adapterId);
  if (!adapter) throw new Error(`no adapter ${round.adapterId}`);
  return adapter;
}
const built = (round: CapturedRound, using: Redactor = redactor) =>
  buildExchange(adapterOf(round), using, round, undefined, limits).interaction;
const traced = (round: CapturedRound, using: Redactor = redactor) =>
  buildInteraction(adapterOf(round), using, round, limits);

describe('buildInteraction', () => {
  it('gives the trace the stored exchange holds, for every shape of round', () => {
    const all = rounds();
    expect(all.length).toBeGreaterThan(10);
    for (const round of all) expect(traced(round)).toEqual(built(round));
  });

  it('redacts the agent key and patterns wherever they fall in an answer (property)', () => {
    const pieces = fc.constantFrom(agentKey, 'acct-123456', 'Zürich ☀ ', 'sk-', 'plain ', '"\\');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 8 }), fc.array(fc.nat(400)), (parts, cuts) => {
        const bytes = new TextEncoder().encode(completion(parts.join('')));
        const round = streamed(capturedChatRound({ requestHeaders: withKey }), bytes, cuts);
        const interaction = traced(round);
        expect(interaction).toEqual(built(round));
        expect(JSON.stringify(interaction)).not.toContain(agentKey);
      }),
    );
  });

  it('never filters headers: the trace holds none', () => {
    // A redactor whose header filter throws: building the stored exchange fails, the trace does not.
    const refusing: Redactor = {
      ...redactor,
      withSecrets: (values) => ({
        ...redactor.withSecrets(values),
        headers: () => {
          throw new Error('headers filtered');
        },
      }),
    };
    const round = capturedChatRound({ requestHeaders: withKey });
    expect(() => built(round, refusing)).toThrow('headers filtered');
    expect(traced(round, refusing)).toEqual(built(round));
  });
});
