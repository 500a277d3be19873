import { describe, expect, it } from 'vitest';
import { reviewText, type StoredInteraction } from './review-text.js';

const bytes = (text: string): Uint8Array => Buffer.from(text, 'utf8');

function interaction(session: string, id: string, answer: string): StoredInteraction {
  return {
    row: {
      id,
      session_id: session,
      started_at: Number(id.replace(/\D/g, '')),
      total_ms: 12.5,
      response_chunks: '[[10,1.5]]',
      request_key: `key-${id}`,
      canonical_request: '{"body":{}}',
      last_replay_run: null,
      request_headers: JSON.stringify({
        'content-type': 'application/json',
        'idempotency-key': id,
      }),
      request_body: bytes(JSON.stringify({ messages: [{ role: 'user', content: session }] })),
      response_headers: JSON.stringify({
        'x-request-id': `req_${id}`,
        'content-type': 'text/event-stream',
      }),
      response_body: bytes(
        `data: ${JSON.stringify({ id: `chatcmpl-${id}`, created: 1, choices: [{ delta: { content: answer } }], obfuscation: id })}\n\ndata: [DONE]\n\n`,
      ),
      response_text: answer,
    },
    toolCalls: [
      { choice: 0, position: 0, call_id: `call_${id}`, name: 'f', arguments_json: '{"id":"x"}' },
    ],
  };
}

describe('reviewText', () => {
  it('orders by session then turn and leaves out ids, times, request ids and derived keys', () => {
    const text = reviewText([
      interaction('b', 'r1', 'B1'),
      interaction('a#10', 'r2', 'A10'),
      interaction('a#2', 'r3', 'A2'),
      interaction('b', 'r4', 'B2'),
    ]);
    expect(
      [...text.matchAll(/^session_id: (.+)\nturn: (\d)/gm)].map((m) => `${m[1]}/${m[2]}`),
    ).toEqual(['a#2/1', 'a#10/1', 'b/1', 'b/2']);
    for (const gone of [
      'r1',
      'started_at',
      'total_ms',
      'response_chunks',
      'request_key',
      'canonical_request',
      'last_replay_run',
      'x-request-id',
      'idempotency-key',
    ])
      expect(text).not.toContain(gone);
    // The stream stays readable, its event ids and padding replaced; tool arguments kept whole.
    expect(text).toContain(
      'data: {"id":"<id 1>","created":"<time>","choices":[{"delta":{"content":"B1"}}],"obfuscation":"<random>"}',
    );
    expect(text).toContain('call_id: <id 2>');
    expect(text).toContain('id: x');
    expect(text).toContain('content-type: text/event-stream');
  });

  it('gives the same text for two recordings of the same answers in another order', () => {
    const first = reviewText([interaction('a', 'r1', 'A'), interaction('b', 'r2', 'B')]);
    const second = reviewText([interaction('b', 'r7', 'B'), interaction('a', 'r9', 'A')]);
    expect(second).toBe(first);
  });
});
