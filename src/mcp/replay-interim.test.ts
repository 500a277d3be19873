import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../trace/trace.js';
import { interimMessages, progressTokenOf } from './replay-interim.js';

const progress = (token: JsonValue, value: number): JsonValue => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: token, progress: value, total: 3 },
});
const roots = (id: number): JsonValue => ({ jsonrpc: '2.0', id, method: 'roots/list' });

describe('interimMessages', () => {
  it('gives progress the client’s own token and requests to the client fresh ids, in the recorded order', () => {
    let next = 0;
    const messages = interimMessages([progress(4, 1), roots(0), progress(4, 2)], 'token-9', () => {
      next++;
      return `calltape-replay-${next}`;
    });
    expect(messages).toEqual([
      { message: progress('token-9', 1), awaitsAnswer: false, standalone: false },
      {
        message: { ...(roots(0) as object), id: 'calltape-replay-1' },
        awaitsAnswer: true,
        standalone: false,
      },
      { message: progress('token-9', 2), awaitsAnswer: false, standalone: false },
    ]);
  });

  it('leaves progress out when the client asked for none, and skips what is not a message', () => {
    expect(
      interimMessages([progress(1, 1), 'junk', { id: 3 }, roots(2)], undefined, () => 7),
    ).toEqual([
      { message: { ...(roots(2) as object), id: 7 }, awaitsAnswer: true, standalone: false },
    ]);
  });

  it('marks what the server sent on its own stream, unwrapped, in the recorded order', () => {
    const log = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 'hi' },
    };
    expect(
      interimMessages(
        [
          { stream: 'standalone', message: log },
          { stream: 'standalone', message: roots(5) },
          roots(6),
        ],
        undefined,
        () => 'r',
      ),
    ).toEqual([
      { message: log, awaitsAnswer: false, standalone: true },
      { message: { ...(roots(5) as object), id: 'r' }, awaitsAnswer: true, standalone: true },
      { message: { ...(roots(6) as object), id: 'r' }, awaitsAnswer: true, standalone: false },
    ]);
  });

  it('never reuses a recorded request id, whatever was recorded (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 5 }), { maxLength: 20 }), (ids) => {
        let next = 100;
        const sent = interimMessages(ids.map(roots), 1, () => next++).map(
          (interim) => interim.message['id'],
        );
        expect(sent).toEqual(ids.map((_, index) => 100 + index));
      }),
    );
  });

  it('reads the progress token from _meta', () => {
    expect(progressTokenOf({ name: 'add', _meta: { progressToken: 3 } })).toBe(3);
    expect(progressTokenOf({ name: 'add' })).toBeUndefined();
  });
});
