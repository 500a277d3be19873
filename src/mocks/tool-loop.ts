import { setTimeout as sleep } from 'node:timers/promises';
import { CalltapeError } from '../errors.js';
import type {
  ProviderAdapter,
  ToolLoopWire,
  ToolResultMessage,
} from '../providers/provider-adapter.js';
import { answerKey, emptyPrefix, prefixKeys, type PrefixKey } from '../trace/prefix-hash.js';
import type { JsonValue, ResponseSummary, ToolCall } from '../trace/trace.js';
import type { HiddenHistory, MockCounters } from './hidden-history.js';
import type { Mock } from './mock-types.js';

/** A mocked call and the answer it got, as the store keeps it. */
export interface MockedCallRecord extends ToolResultMessage {
  readonly name: string;
  /** The mock set that answered. */
  readonly set: string;
  /** The state keys the call set in its session, with their new values. */
  readonly state?: { readonly [key: string]: JsonValue };
}

/** One upstream round trip of the loop, answered (forwarded or replayed) by the proxy. */
export interface LoopRound {
  readonly status: number;
  /** The whole response body as text, in the form it was answered in. */
  readonly body: string;
  readonly response: ResponseSummary | undefined;
  /** Whether the answer is a finished model turn (else it goes to the agent as is: an error, a truncation). */
  readonly complete: boolean;
  /** Stores the round with what the loop made of it. Called once per round. */
  record(outcome: RoundOutcome): void;
}

/** What the loop made of a round: the calls mocks answered, whether the agent saw it, and what it saw when that differs. */
export interface RoundOutcome {
  readonly mocked: readonly MockedCallRecord[];
  /** The agent never sees this round (every call in it was mocked). */
  readonly hidden: boolean;
  readonly agentResponse?: string | undefined;
}

const unmockedRound: RoundOutcome = { mocked: [], hidden: false };

export interface ToolLoopOptions {
  readonly adapter: ProviderAdapter & { readonly toolLoop: ToolLoopWire };
  readonly mocks: ReadonlyMap<string, Mock>;
  readonly history: HiddenHistory;
  readonly counters: MockCounters;
  readonly session: string;
  readonly maxHiddenRounds: number;
  /** Fail a turn that calls a tool neither mocked nor in `allowTools`. */
  readonly strictTools: boolean;
  readonly allowTools: ReadonlySet<string>;
  /** The agent's requested form, for rewriting an answer it sees part of. */
  readonly form: { readonly stream: boolean; readonly includeUsage: boolean };
  /** Forwards (or replays) a request body upstream. */
  roundTrip(body: JsonValue): Promise<LoopRound>;
}

/** What the agent gets: a round's answer (rewritten when some of its calls were mocked), or an error. */
export type LoopOutcome =
  | { readonly kind: 'answer'; readonly round: LoopRound; readonly body: string | undefined }
  | { readonly kind: 'error'; readonly error: CalltapeError };

/**
 * Answers the model's calls to mocked tools inside the proxy. The agent's request goes upstream
 * with the hidden history of its conversation spliced back in; while the model's turn calls only
 * mocked tools, the turn and the mocks' results are appended and the model is asked again
 * (a hidden round). The first turn with text only, or with calls to tools the agent runs,
 * goes to the agent — without the mocked calls, whose results the proxy keeps to splice into
 * the agent's next request. Text the model wrote in a hidden round stays in the model's history
 * and the cassette; the agent sees only the final turn.
 */
export async function runToolLoop(
  agentBody: JsonValue,
  options: ToolLoopOptions,
): Promise<LoopOutcome> {
  const { adapter, mocks, history } = options;
  const wire = adapter.toolLoop;
  const visiblePrefix = prefixKeys(adapter.parseRequest(agentBody).messages).at(-1) ?? emptyPrefix;
  let body = wire.splice(agentBody, (key) => history.get(key)) ?? agentBody;
  // Kept under the agent's conversation prefix, and under the response id for wires that continue by id.
  const remember = (
    key: PrefixKey,
    responseId: string | undefined,
    messages: readonly JsonValue[],
  ): void => {
    history.set(key, messages);
    if (responseId !== undefined && wire.responseKey)
      history.set(wire.responseKey(responseId), messages);
  };
  const hidden: JsonValue[] = [];
  for (let round = 0; ; round++) {
    const answered = await options.roundTrip(body);
    const output = answered.response?.output;
    if (!answered.complete || !output) {
      answered.record(unmockedRound);
      return { kind: 'answer', round: answered, body: undefined };
    }
    const mocked = output.toolCalls.filter(
      (call) => mocks.has(call.name) && call.id !== undefined && call.complete,
    );
    const unmocked = output.toolCalls.filter((call) => !mocked.includes(call));
    const escaped = options.strictTools
      ? unmocked.filter((call) => !options.allowTools.has(call.name))
      : [];
    if (escaped.length > 0) {
      answered.record(unmockedRound);
      const names = [...new Set(escaped.map((call) => call.name))].join(', ');
      return {
        kind: 'error',
        error: new CalltapeError(
          'STRICT_TOOLS',
          `calltape: the model called ${names}, which is neither mocked nor allowed (mocks.strictTools); mock it or add it to mocks.allowTools`,
        ),
      };
    }
    if (mocked.length === 0) {
      answered.record(unmockedRound);
      // The agent will send this turn back, in full or by reference to its items: put the hidden rounds before it.
      if (hidden.length > 0) {
        remember(answerKey(visiblePrefix, output), answered.response?.id, [
          ...hidden,
          ...wire.turnMessages(output, [], answered.body),
        ]);
        const before = [...hidden];
        for (const key of wire.referenceKeys?.(answered.body) ?? []) history.set(key, before);
      }
      return { kind: 'answer', round: answered, body: undefined };
    }
    if (round >= options.maxHiddenRounds) {
      answered.record(unmockedRound);
      return {
        kind: 'error',
        error: new CalltapeError(
          'MOCK_LOOP',
          `calltape: the model kept calling mocked tools for ${round + 1} rounds (mocks.maxHiddenRounds is ${options.maxHiddenRounds}); its last turn called ${mocked.map((call) => call.name).join(', ')}`,
        ),
      };
    }
    const results = await answerAll(mocked, options);
    const turn = wire.turnMessages(output, results, answered.body);
    if (unmocked.length === 0) {
      answered.record({ mocked: results, hidden: true });
      hidden.push(...turn);
      body =
        wire.continueAfter?.(body, answered.response?.id, results) ??
        wire.appendMessages(body, turn);
      continue;
    }
    // Some calls are the agent's: it sees the turn without the mocked ones and runs the rest.
    remember(
      answerKey(visiblePrefix, { text: output.text, toolCalls: unmocked }),
      answered.response?.id,
      [...hidden, ...turn],
    );
    const visible = wire.withoutCalls(
      answered.body,
      options.form,
      new Set(mocked.map((call) => call.id as string)),
    );
    answered.record({ mocked: results, hidden: false, agentResponse: visible });
    if (visible === undefined)
      return {
        kind: 'error',
        error: new CalltapeError(
          'MOCK_LOOP',
          'calltape: could not rewrite the model turn without its mocked calls',
        ),
      };
    return { kind: 'answer', round: answered, body: visible };
  }
}

async function answerAll(
  calls: readonly ToolCall[],
  options: ToolLoopOptions,
): Promise<MockedCallRecord[]> {
  return Promise.all(
    calls.map(async (call) => {
      const mock = options.mocks.get(call.name) as Mock;
      const occurrence = options.counters.next(options.session, mock.set, call.name);
      const answer = await mock.answer(
        { id: call.id as string, name: call.name, argumentsRaw: call.argumentsRaw },
        { session: options.session, occurrence },
      );
      if (answer.delayMs > 0) await sleep(answer.delayMs);
      return {
        callId: call.id as string,
        name: call.name,
        set: mock.set,
        content: answer.content,
        isError: answer.isError,
        ...(answer.state ? { state: answer.state } : {}),
      };
    }),
  );
}
