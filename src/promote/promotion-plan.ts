import type { SessionRound } from '../cassette/recorded-exchange.js';
import { CalltapeError } from '../errors.js';
import { caseName } from './case-name.js';
import { toCompletionBody } from '../providers/openai-chat/convert-openai-chat-body.js';
import { buildTrajectories } from '../trace/build-trajectories.js';
import type { JsonValue } from '../trace/trace.js';
import type { TrajectoryCall } from '../trace/trajectory.js';

/** Where the session came from and why it is promoted, as the case's provenance says it. */
export interface PromotionSource {
  readonly sessionId: string;
  readonly rounds: readonly SessionRound[];
  /** `policy/reason: message` of each policy failure shadow scoring found (none for a cassette session). */
  readonly failures: readonly string[];
  /** The cassette, as the suite should name it (relative to the suite). */
  readonly cassette: string;
  /** The shadow-scoring database, relative to the suite, when the session was picked from one. */
  readonly shadowDb?: string;
  /** Case ids the suite (and the cases promoted before this one) already use: the case's name avoids them. */
  readonly taken?: ReadonlySet<string>;
  /** The folder, relative to the suite, every promoted case's mock file goes into. */
  readonly mocksDir?: string;
}

/** Where promoted cases' mock files go unless the command names another folder (relative to the suite). */
export const defaultPromotedMocksDir = 'mocks/promoted';

/** An answer the replay of the promoted case gets from the session, in order. */
export interface RecordedAnswer {
  readonly httpStatus: number;
  readonly contentType: string;
  readonly body: string;
}

/** What promoting one session writes, worked out before anything is written. */
export interface PromotionPlan {
  readonly sessionId: string;
  readonly testId: string;
  /** The model the session asked; the suite's model for direct mode. */
  readonly model: string;
  /** The tools the session offered, as its first request carried them. */
  readonly tools: readonly JsonValue[];
  /** The suite case (config/suite.schema.json), `review: pending`. */
  readonly testCase: { readonly [field: string]: JsonValue };
  /** The case's mock file (relative to the suite) and its content, when the session saw tool results. */
  readonly mocks:
    { readonly file: string; readonly content: { [field: string]: JsonValue } } | undefined;
  /** The calls the session made up to where the replay stops, as the model wrote them: what the replay must make again. */
  readonly calls: readonly { readonly name: string; readonly arguments: string }[];
  /** The session's answers, in the order the case's replay asks for them. */
  readonly answers: readonly RecordedAnswer[];
  /** What of the session the case leaves out, and why, for the user. */
  readonly notes: readonly string[];
}

/**
 * Plans a case from a recorded session. The case is driven directly (Chat Completions): its
 * messages are the session's first request's, and every tool whose results the session saw is
 * mocked with those results in order, so the proxy's tool loop walks the same round trips the
 * agent did. The replay stops at the first round whose calls are not all mocked (the call goes
 * back to the driver) or that calls nothing; the calls made up to there are the starting
 * expectation (`expect.mode: exact`) — what was done, for a reviewer to correct into what should
 * have been. Failed round trips (a retry follows them) and later user turns are left out, and
 * said so in `notes`.
 */
export function planPromotion(source: PromotionSource): PromotionPlan {
  const { sessionId } = source;
  const first = source.rounds[0];
  if (!first)
    throw new CalltapeError('CONFIG_INVALID', `session "${sessionId}": no round trips recorded`);
  if (first.interaction.provider !== 'openai-chat')
    throw new CalltapeError(
      'CONFIG_INVALID',
      `session "${sessionId}": spoken on ${first.interaction.provider}; a promoted case replays in direct mode, which speaks Chat Completions (openai-chat) only`,
    );
  const notes: string[] = [];
  const complete = source.rounds.filter(
    (round) => round.interaction.status === 'complete' && round.response !== undefined,
  );
  if (complete.length < source.rounds.length)
    notes.push(
      `${source.rounds.length - complete.length} failed round trip(s) left out (the agent's retry stands in for them)`,
    );
  const start = complete[0];
  if (!start)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `session "${sessionId}": none of its ${source.rounds.length} round trip(s) completed, so there is no answer to replay`,
    );
  const body = start.agentRequest;
  const messages = isObject(body) ? body['messages'] : undefined;
  if (!Array.isArray(messages) || messages.length === 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `session "${sessionId}": its first request has no messages to start the case from`,
    );
  const userTurns = (round: SessionRound): number =>
    round.interaction.request.messages.filter((message) => message.role === 'user').length;
  const later = complete.findIndex((round) => userTurns(round) > userTurns(start));
  const played = later === -1 ? complete : complete.slice(0, later);
  if (later !== -1)
    notes.push(
      `${complete.length - later} round trip(s) after the next user turn left out (a case is one user turn)`,
    );
  const [trajectory] = buildTrajectories(
    played.map((round) => ({ ...round.interaction, sessionId: `promote:${sessionId}` })),
  );
  const turns = trajectory?.turns.map((turn) => turn.calls) ?? [];
  const { stop, mocked } = replayExtent(turns);
  if (stop < played.length - 1)
    notes.push(
      `${played.length - 1 - stop} round trip(s) after round ${stop + 1} left out: a call there had no result to mock, so the replay hands it back`,
    );
  const calls = turns.slice(0, stop + 1).flat();
  const prompt = [...start.interaction.request.messages]
    .reverse()
    .find((message) => message.role === 'user')?.text;
  const testId = caseName(prompt, sessionId, source.taken ?? new Set());
  const mockFile = `${(source.mocksDir ?? defaultPromotedMocksDir).replace(/\/+$/, '')}/${testId}.yaml`;
  const mockSpecs = [...new Set(calls.map((call) => call.name))]
    .filter((tool) => mocked.has(tool))
    .map((tool): JsonValue => ({
      tool,
      description: `what session ${sessionId} got back, call by call`,
      sequence: calls.filter((call) => call.name === tool).map(answerOf),
      after: 'error',
    }));
  const model =
    (isObject(body) && typeof body['model'] === 'string' ? body['model'] : undefined) ??
    start.interaction.request.model;
  if (model === undefined)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `session "${sessionId}": its first request names no model`,
    );
  const tools = isObject(body) && Array.isArray(body['tools']) ? body['tools'] : [];
  const testCase: { [field: string]: JsonValue } = {
    test_id: testId,
    ...(prompt ? { prompt } : {}),
    messages,
    ...(calls.length === 0
      ? { expected_tool: null }
      : { expect: { mode: 'exact', calls: calls.map(expectationOf) } }),
    ...(mockSpecs.length > 0 ? { mocks: [mockFile] } : {}),
    review: 'pending',
    provenance: {
      source: 'promoted',
      session: sessionId,
      cassette: source.cassette,
      ...(source.shadowDb !== undefined ? { shadow_db: source.shadowDb } : {}),
      ...(source.failures.length > 0 ? { failures: [...source.failures] } : {}),
    },
  };
  return {
    sessionId,
    testId,
    model,
    tools,
    testCase,
    mocks: mockSpecs.length > 0 ? { file: mockFile, content: { mocks: mockSpecs } } : undefined,
    calls: calls.map((call) => ({ name: call.name, arguments: call.argumentsRaw })),
    answers: played.slice(0, stop + 1).map((round) => answerBody(round, sessionId)),
    notes,
  };
}

/**
 * How far the replay goes and which tools are mocked: it stops at the first round with a call to
 * an unmocked tool, or with no call; a tool is mocked only when every call to it before the stop
 * has a result to give back. Removing a tool moves the stop earlier, so this settles.
 */
export function replayExtent(turns: readonly (readonly TrajectoryCall[])[]): {
  stop: number;
  mocked: ReadonlySet<string>;
} {
  const mocked = new Set(turns.flat().map((call) => call.name));
  if (turns.length === 0) return { stop: 0, mocked };
  for (;;) {
    const stop = turns.findIndex(
      (calls) => calls.length === 0 || calls.some((call) => !mocked.has(call.name)),
    );
    if (stop === -1) {
      // Every round's calls are answered, the last one's too, yet no round follows it.
      for (const call of turns[turns.length - 1] ?? []) mocked.delete(call.name);
      continue;
    }
    const unanswered = turns
      .slice(0, stop + 1)
      .flat()
      .filter((call) => mocked.has(call.name) && call.result === undefined);
    if (unanswered.length === 0) return { stop, mocked };
    for (const call of unanswered) mocked.delete(call.name);
  }
}

function answerOf(call: TrajectoryCall): JsonValue {
  const text = call.result?.text ?? '';
  if (call.result?.isError !== true) return { result: text };
  const parsed = parseObject(text);
  return { error: parsed ?? text };
}

function expectationOf(call: TrajectoryCall): JsonValue {
  const value = call.arguments.ok ? call.arguments.value : undefined;
  return isObject(value) && Object.keys(value).length > 0
    ? { tool: call.name, arguments: value }
    : { tool: call.name };
}

/** The round's answer as a non-streaming request gets it (direct mode does not stream). */
function answerBody(round: SessionRound, sessionId: string): RecordedAnswer {
  const response = round.response;
  const text = response ? new TextDecoder().decode(response.body) : '';
  if (!round.interaction.request.stream)
    return {
      httpStatus: response?.httpStatus ?? 200,
      contentType: response?.contentType ?? 'application/json',
      body: text,
    };
  const completion = toCompletionBody(text);
  if (completion === undefined)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `session "${sessionId}": round trip ${round.interaction.id}: its recorded stream does not assemble into one answer`,
    );
  return { httpStatus: 200, contentType: 'application/json', body: completion };
}

function parseObject(text: string): { [field: string]: JsonValue } | undefined {
  try {
    const value = JSON.parse(text) as JsonValue;
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: JsonValue | undefined): value is { [field: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
