import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitBytes } from '../../../test/support/split-bytes.js';
import { decodeEventStream, encodeEventStream } from './event-stream.js';

const fixture = (name: string): Uint8Array =>
  readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('decodeEventStream', () => {
  const live = fixture('ai-sdk-bedrock-live-converse-stream.eventstream');

  it('reads the events of a real ConverseStream capture, CRCs checked', () => {
    const decoded = decodeEventStream([live]);
    expect(decoded.invalid).toBeUndefined();
    expect(decoded.trailing).toBe(0);
    expect(decoded.events.map((event) => event.type)).toEqual([
      'messageStart',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockStop',
      'messageStop',
      'metadata',
    ]);
  });

  it('writes frames the same bytes as Bedrock did for the same events (header order, CRCs)', () => {
    expect(Buffer.from(encodeEventStream(decodeEventStream([live]).events))).toEqual(
      Buffer.from(live),
    );
  });

  it('reads an exception message sent inside the stream', () => {
    const decoded = decodeEventStream([fixture('ai-sdk-bedrock-model-stream-error.eventstream')]);
    expect(decoded.events).toEqual([
      expect.objectContaining({ messageType: 'exception', type: 'modelStreamErrorException' }),
    ]);
  });

  it('decodes the same events however the bytes are split (property)', () => {
    const whole = decodeEventStream([live]);
    fc.assert(
      fc.property(fc.array(fc.nat({ max: live.length }), { maxLength: 40 }), (cuts) => {
        expect(decodeEventStream(splitBytes(live, cuts))).toEqual(whole);
      }),
    );
  });

  it('keeps a message cut short as trailing bytes, and stops at a corrupted CRC', () => {
    const cut = decodeEventStream([live.subarray(0, live.length - 3)]);
    expect(cut.events).toHaveLength(5);
    expect(cut.trailing).toBeGreaterThan(0);
    const corrupted = Uint8Array.from(live);
    corrupted[30] = (corrupted[30] ?? 0) ^ 0xff;
    expect(decodeEventStream([corrupted]).invalid).toBeDefined();
  });
});
