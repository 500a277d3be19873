import fnv1a from '@sindresorhus/fnv1a';
import { askThroughProxy, type ModelEndpoint } from '../ask-through-proxy.js';
import { verdictOf } from './llm-judge.js';
import type { JudgeVerdict } from '../scoring/trajectory/types.js';
import { judgeSessionPrefix } from '../trace/build-trajectories.js';
import type { JsonValue } from '../trace/trace.js';
import type { LlmJudgeDefinition } from './judge-definition.js';

/** Where judge requests go: the proxy, so every one is recorded (and replayed) in the cassette. */
export type JudgeEndpoint = ModelEndpoint;

/**
 * The session a judge's requests about one run are recorded under: calltape's judge prefix (so
 * trajectories leave them out), the judge and the run. Stable across machines as long as the
 * run reference is (a relative cassette path), which is how recorded costs and latencies are
 * found again on replay.
 */
export function judgeSession(judge: string, run: string): string {
  const session = `${judgeSessionPrefix}:${judge}:${run}`;
  return session.length <= 200
    ? session
    : `${judgeSessionPrefix}:${judge}:#${fnv1a(run).toString(16)}`;
}

/**
 * Asks a judge model once, through the proxy, on its own wire (OpenAI Chat Completions or
 * Anthropic Messages). Rejects with a message naming the judge when the model cannot answer
 * (HTTP error, replay miss) or answers anything but the JSON verdict asked for.
 */
export async function askJudgeModel(
  judge: LlmJudgeDefinition,
  body: JsonValue,
  session: string,
  endpoint: JudgeEndpoint,
): Promise<JudgeVerdict> {
  let text: string;
  try {
    text = await askThroughProxy(judge.provider, body, session, endpoint);
  } catch (error) {
    throw new Error(
      `judge "${judge.name}" (${judge.model}) could not answer: ${(error as Error).message}`,
    );
  }
  try {
    return verdictOf(text);
  } catch (error) {
    throw new Error(`judge "${judge.name}" (${judge.model}): ${(error as Error).message}`);
  }
}
