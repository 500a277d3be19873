import fnv1a from '@sindresorhus/fnv1a';
import { request } from 'undici';
import { adapterById } from '../providers/adapters.js';
import { verdictOf } from './llm-judge.js';
import type { JudgeVerdict } from '../scoring/trajectory/types.js';
import { judgeSessionPrefix } from '../trace/build-trajectories.js';
import type { JsonValue } from '../trace/trace.js';
import type { LlmJudgeDefinition } from './judge-definition.js';

/** Where judge requests go: the proxy, so every one is recorded (and replayed) in the cassette. */
export interface JudgeEndpoint {
  /** The proxy's origin (`http://127.0.0.1:4545`). */
  readonly url: string;
  /** Sent upstream in record and auto modes; calltape never stores it. */
  readonly apiKey: string;
  readonly timeoutMs: number;
}

/**
 * The session a judge's requests about one run are recorded under: calltape's judge prefix (so
 * trajectories leave them out), the judge and the run. Stable across machines as long as the
 * run reference is (a relative cassette path), which is how recorded costs and latencies are
 * found again on replay.
 */
export function judgeSession(judge: string, run: string): string {
  const session = `${judgeSessionPrefix}:${judge}:${run}`;
  return session.length <= 200 ? session : `${judgeSessionPrefix}:${judge}:#${fnv1a(run).toString(16)}`;
}

/**
 * Asks a judge model once, through the proxy, on its own wire (OpenAI Chat Completions or
 * Anthropic Messages). Rejects with a message naming the judge when the model cannot answer
 * (HTTP error, replay miss) or answers anything but the JSON verdict asked for.
 */
export async function askJudgeModel(judge: LlmJudgeDefinition, body: JsonValue, session: string, endpoint: JudgeEndpoint): Promise<JudgeVerdict> {
  const anthropic = judge.provider === 'anthropic';
  const adapter = adapterById(anthropic ? 'anthropic-messages' : 'openai-chat');
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-calltape-session': session };
  if (anthropic) Object.assign(headers, { 'x-api-key': endpoint.apiKey, 'anthropic-version': '2023-06-01' });
  else headers['authorization'] = `Bearer ${endpoint.apiKey}`;
  const response = await request(`${endpoint.url}${anthropic ? '/v1/messages' : '/v1/chat/completions'}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    headersTimeout: endpoint.timeoutMs,
    bodyTimeout: endpoint.timeoutMs,
  });
  const bytes = new Uint8Array(await response.body.arrayBuffer());
  const contentType = response.headers['content-type'];
  const parsed = adapter?.parseResponse({ httpStatus: response.statusCode, contentType: typeof contentType === 'string' ? contentType.toLowerCase() : undefined, body: [bytes], ending: 'finished' });
  if (!parsed || parsed.status !== 'complete' || !parsed.response) {
    throw new Error(`judge "${judge.name}" (${judge.model}) could not answer: HTTP ${response.statusCode}: ${parsed?.error ?? new TextDecoder().decode(bytes).slice(0, 300)}`);
  }
  try {
    return verdictOf(parsed.response.output.text);
  } catch (error) {
    throw new Error(`judge "${judge.name}" (${judge.model}): ${(error as Error).message}`);
  }
}
