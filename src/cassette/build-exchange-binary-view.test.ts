import { describe, expect, it } from 'vitest';
import { capturedChatRound } from '../../test/support/captured-round.js';
import { bedrockConverseAdapter } from '../providers/bedrock/bedrock-converse-adapter.js';
import { eventsOfTurn } from '../providers/bedrock/converse-turn.js';
import { decodeEventStream, encodeEventStream } from '../providers/bedrock/event-stream.js';
import { buildExchange } from './build-exchange.js';
import { createRedactor } from './redact.js';

const redactor = createRedactor(
  [],
  [{ pattern: 'acct-[0-9]{6}', flags: '', replacement: 'acct-REDACTED' }],
);
const frames = (text: string): Uint8Array =>
  encodeEventStream(
    eventsOfTurn({
      blocks: [{ kind: 'text', text }],
      stopReason: 'end_turn',
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      metrics: { latencyMs: 1 },
      extra: {},
      stopped: true,
      exception: undefined,
    }),
  );

/** A ConverseStream round whose agent got `view` (the answer rewritten by the tool loop). */
function storedView(view: Uint8Array): Uint8Array | undefined {
  const round = capturedChatRound({
    path: '/model/m/converse-stream',
    requestBody: JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'hi' }] }] }),
    responseHeaders: { 'content-type': 'application/vnd.amazon.eventstream' },
    responseBody: frames('Done — ünïcode ✓'),
  });
  return buildExchange(
    bedrockConverseAdapter,
    redactor,
    { ...round, adapterId: 'bedrock-converse', agentView: { response: view } },
    undefined,
    { maxDecodedBytes: 1024 * 1024 },
  ).agentView?.response;
}

describe('the stored agent view of a wire with binary bodies (Bedrock)', () => {
  it('keeps the frames the agent got byte for byte (regression: read as UTF-8 they lost their CRCs)', () => {
    const view = frames('Visible — ünïcode ✓');
    expect(Buffer.from(storedView(view) ?? [])).toEqual(Buffer.from(view));
  });

  it('stores frames that held a secret re-expressed as valid frames without it', () => {
    const stored = storedView(frames('Your account is acct-123456 — ✓'));
    const decoded = decodeEventStream([stored ?? new Uint8Array()]);
    expect([decoded.invalid, decoded.trailing]).toEqual([undefined, 0]);
    const text = JSON.stringify(decoded.events);
    expect(text).not.toContain('acct-123456');
    expect(text).toContain('Your account is acct-REDACTED — ✓');
  });
});
