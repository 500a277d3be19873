import type { WebSocket } from 'ws';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { Mock } from '../mocks/mock-types.js';
import { runToolLoop, type LoopOutcome } from '../mocks/tool-loop.js';
import { parseJson } from '../providers/json-access.js';
import type { ProviderAdapter, ToolLoopWire } from '../providers/provider-adapter.js';
import type { CapturePipeline } from './capture-pipeline.js';
import type { MockState } from './mock-state.js';
import type { WebSocketConnection, WebSocketLoopRound } from './websocket-connection.js';
import { storedFrames } from './websocket-frames.js';
import { websocketErrorFrame } from './websocket-error-frame.js';

export interface WebSocketMockTurnOptions {
  readonly client: WebSocket;
  readonly connection: WebSocketConnection;
  readonly adapter: ProviderAdapter & { readonly toolLoop: ToolLoopWire };
  readonly mocks: ReadonlyMap<string, Mock>;
  readonly mockState: MockState;
  readonly config: Config;
  readonly pipeline: CapturePipeline;
  readonly session: string;
}

/**
 * A `response.create` under mock tools: the tool loop runs its rounds over the connection, and
 * the agent gets only the final turn's frames (rewritten without the mocked calls when the turn
 * mixes them with its own), or an error frame.
 */
export async function answerTurnWithMocks(
  frame: string,
  options: WebSocketMockTurnOptions,
): Promise<void> {
  const { client, adapter, config, mockState } = options;
  const agentBody = parseJson(frame);
  if (!agentBody.ok) return;
  const outcome: LoopOutcome = await runToolLoop(agentBody.value, {
    adapter,
    mocks: options.mocks,
    history: mockState.history,
    counters: mockState.counters,
    session: options.session,
    maxHiddenRounds: config.mocks.maxHiddenRounds,
    strictTools: config.mocks.strictTools,
    allowTools: new Set(config.mocks.allowTools),
    form: { stream: true, includeUsage: false },
    roundTrip: (body) => options.connection.loopRound(JSON.stringify(body)),
  }).catch((error: unknown) => ({
    kind: 'error' as const,
    error:
      error instanceof CalltapeError
        ? error
        : new CalltapeError('UPSTREAM_UNREACHABLE', (error as Error).message),
  }));
  if (outcome.kind === 'error') {
    if (outcome.error.code === 'STRICT_TOOLS') options.pipeline.refused(outcome.error);
    client.send(websocketErrorFrame(adapter, outcome.error));
    return;
  }
  const visible =
    outcome.body === undefined
      ? (outcome.round as WebSocketLoopRound).frames
      : storedFrames(Buffer.from(outcome.body));
  for (const text of visible) client.send(text);
}
