import type { ToolLoopWire } from '../providers/provider-adapter.js';
import type { JsonValue, MockedResult } from '../trace/trace.js';
import type { AnsweredCalls, MockCounters } from './hidden-history.js';
import type { Mock, MockAnswer } from './mock-types.js';

/**
 * Override mode, for agents that must run their tools themselves: the agent's calls go through,
 * and the results it sends back for mocked tools are replaced by the mocks' answers before the
 * request goes upstream. Each replaced result is reported with the agent's own result beside
 * the mock's, so the store keeps both. Undefined when nothing was replaced.
 */
export async function overrideToolResults(
  body: JsonValue,
  wire: ToolLoopWire,
  mocks: ReadonlyMap<string, Mock>,
  answered: AnsweredCalls<MockAnswer & { readonly set: string }>,
  counters: MockCounters,
  session: string,
): Promise<{ readonly body: JsonValue; readonly mocked: readonly MockedResult[] } | undefined> {
  const results = wire.toolResults(body).filter((result) => mocks.has(result.name));
  if (results.length === 0) return undefined;
  const mocked: MockedResult[] = [];
  const contents = new Map<string, string>();
  for (const result of results) {
    const mock = mocks.get(result.name) as Mock;
    const answer = await answered.get(result.callId, async () => ({
      ...(await mock.answer(
        { id: result.callId, name: result.name, argumentsRaw: result.argumentsRaw },
        { session, occurrence: counters.next(session, mock.set, result.name) },
      )),
      set: mock.set,
    }));
    contents.set(result.callId, answer.content);
    mocked.push({
      callId: result.callId,
      name: result.name,
      set: answer.set,
      content: answer.content,
      isError: answer.isError,
      agentResult: result.content,
      ...(answer.state ? { state: answer.state } : {}),
    });
  }
  return { body: wire.withToolResults(body, contents), mocked };
}
