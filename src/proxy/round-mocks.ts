import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import { overrideToolResults } from '../mocks/override-results.js';
import type { Mock } from '../mocks/mock-types.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';
import type { JsonValue } from '../trace/trace.js';
import type { HttpRound } from './captured-route.js';
import { selectMocks, type MockState } from './mock-state.js';
import { sendError } from './send-error.js';

/** The mocks a request runs with (undefined: none configured); false when the request was answered with an error. */
export function mocksOfRequest(
  mockState: MockState | undefined,
  adapter: ProviderAdapter,
  request: IncomingMessage,
  response: ServerResponse,
): ReadonlyMap<string, Mock> | undefined | false {
  const mocks = mockState ? selectMocks(mockState, request.headers) : undefined;
  if (mocks instanceof CalltapeError) {
    sendError(response, adapter, mocks);
    return false;
  }
  if (mocks && mocks.size > 0 && !adapter.toolLoop) {
    // Passing the request through would let the agent run the very tools the mocks stand for.
    sendError(
      response,
      adapter,
      new CalltapeError(
        'INVALID_REQUEST',
        `calltape: mock tools are not answered on ${adapter.id} yet; run this agent without mocks (x-calltape-mocks: none), or through /v1/chat/completions or /v1/messages`,
      ),
    );
    return false;
  }
  return mocks;
}

/** Override mode: the round with mocked tools' results replaced by the mocks' answers. */
export async function withOverriddenResults(
  config: Config,
  mockState: MockState | undefined,
  round: HttpRound,
  mocks: ReadonlyMap<string, Mock>,
): Promise<HttpRound> {
  const wire = round.adapter.toolLoop;
  if (config.mocks.mode !== 'override' || mocks.size === 0 || !wire || !mockState) return round;
  const replaced = await overrideToolResults(
    JSON.parse(round.body.toString('utf8')) as JsonValue,
    wire,
    mocks,
    mockState.answered,
    mockState.counters,
    round.where.sessionId ?? '',
  );
  return replaced
    ? { ...round, body: Buffer.from(JSON.stringify(replaced.body)), overridden: replaced.mocked }
    : round;
}
