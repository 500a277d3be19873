import type { CapturedRound } from '../../src/cassette/captured-round.js';

const encoder = new TextEncoder();

/** What a test changes of the default round; everything else is a plain Chat Completions exchange. */
export interface RoundChanges {
  readonly id?: string;
  readonly sessionId?: string;
  readonly path?: string;
  readonly requestHeaders?: Record<string, string>;
  readonly requestBody?: string | Uint8Array;
  readonly responseHeaders?: Record<string, string>;
  readonly responseBody?: string | Uint8Array;
  readonly agentRequest?: string;
  readonly startedAt?: number;
}

/** A finished non-streamed Chat Completions round, raw as the proxy captures it. */
export function capturedChatRound(changes: RoundChanges = {}): CapturedRound {
  const bytes = (value: string | Uint8Array): Uint8Array =>
    typeof value === 'string' ? encoder.encode(value) : value;
  const id = changes.id ?? 'r1';
  return {
    adapterId: 'openai-chat',
    request: {
      id,
      sessionId: changes.sessionId ?? id,
      method: 'POST',
      path: changes.path ?? '/v1/chat/completions',
      headers: { 'content-type': 'application/json', ...changes.requestHeaders },
      body: bytes(
        changes.requestBody ??
          JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      ),
      startedAt: changes.startedAt ?? 1,
    },
    upstream: {
      status: 200,
      headers: { 'content-type': 'application/json', ...changes.responseHeaders },
      chunks: [
        bytes(
          changes.responseBody ??
            JSON.stringify({
              id: 'c1',
              model: 'm',
              choices: [{ index: 0, message: { role: 'assistant', content: 'hello' } }],
            }),
        ),
      ],
      chunkTimes: [1],
      firstByteMs: 1,
      totalMs: 2,
      ending: 'finished',
      errorMessage: undefined,
    },
    match: undefined,
    proxyError: undefined,
    ...(changes.agentRequest
      ? { agentView: { request: encoder.encode(changes.agentRequest) } }
      : {}),
  };
}
