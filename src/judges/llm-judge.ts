import { request } from 'undici';
import { adapterById } from '../providers/adapters.js';
import { openAiChatJudgeRequest } from '../providers/openai-chat/judge-request.js';
import type { JudgeVerdict, LlmJudgeSpec, TrajectoryCase } from '../scoring/trajectory/types.js';
import { judgeSessionPrefix } from '../trace/build-trajectories.js';
import type { JsonValue } from '../trace/trace.js';
import type { Trajectory } from '../trace/trajectory.js';

export interface LlmJudgeOptions {
  /** The proxy's OpenAI base URL (`http://127.0.0.1:8080/v1`): the verdict is recorded and replayed like any round trip. */
  readonly baseUrl: string;
  /** Model for rubrics that name none. */
  readonly model: string;
  /** Sent as the bearer token; calltape never stores it. */
  readonly apiKey?: string;
  readonly timeoutMs?: number;
}

const instructions = [
  "You judge an AI agent's run against a rubric. The run lists each LLM turn: the tool calls the agent made (with arguments and the results it got back) and the text it wrote.",
  'Decide strictly from the run whether the rubric is met. Answer with one JSON object and nothing else:',
  '{"pass": true or false, "score": a number from 0 to 1, "reason": "one sentence naming the deciding evidence"}',
].join('\n');

/**
 * An LLM judge that asks a model through the calltape proxy. The request is a pure function of
 * the rubric, the case and the run (no ids, no timestamps), so a replayed CI run finds the
 * recorded verdict and needs no network. Round trips go under a `calltape-judge` session, which
 * trajectories leave out. Any failure to get a verdict (HTTP error, replay miss, an answer that
 * is not the JSON asked for) rejects: the caller reports it as a judge error, not as a fail.
 */
export function createLlmJudge(
  options: LlmJudgeOptions,
): (spec: LlmJudgeSpec, trajectory: Trajectory, testCase: TrajectoryCase) => Promise<JudgeVerdict> {
  const adapter = adapterById('openai-chat');
  return async (spec, trajectory, testCase) => {
    const body = openAiChatJudgeRequest(
      spec.model ?? options.model,
      instructions,
      judgePrompt(spec.rubric, trajectory, testCase),
    );
    const response = await request(`${options.baseUrl.replace(/\/$/, '')}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-calltape-session':
          `${judgeSessionPrefix}:${testCase.test_id ?? trajectory.sessionId}`.slice(0, 200),
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      headersTimeout: options.timeoutMs ?? 120_000,
      bodyTimeout: options.timeoutMs ?? 120_000,
    });
    const bytes = new Uint8Array(await response.body.arrayBuffer());
    const contentType = response.headers['content-type'];
    const parsed = adapter?.parseResponse({
      httpStatus: response.statusCode,
      contentType: typeof contentType === 'string' ? contentType.toLowerCase() : undefined,
      body: [bytes],
      ending: 'finished',
    });
    if (!parsed || parsed.status !== 'complete' || !parsed.response)
      throw new Error(
        `the judge model answered ${response.statusCode}: ${parsed?.error ?? new TextDecoder().decode(bytes).slice(0, 300)}`,
      );
    return verdictOf(parsed.response.output.text);
  };
}

/** The user message: rubric, the case's prompt, and the run as stable JSON. */
export function judgePrompt(
  rubric: string,
  trajectory: Trajectory,
  testCase: TrajectoryCase,
): string {
  const run = {
    turns: trajectory.turns.map((turn) => ({
      text: turn.text,
      status: turn.status,
      calls: turn.calls.map((call) => ({
        tool: call.name,
        arguments: call.arguments.ok ? call.arguments.value : call.argumentsRaw,
        result: call.result?.text ?? null,
        ...(call.result?.isError ? { failed: true } : {}),
      })),
    })),
    final_text: trajectory.finalText,
  };
  const prompt =
    typeof testCase['prompt'] === 'string'
      ? `Task given to the agent:\n${testCase['prompt']}\n\n`
      : '';
  return `Rubric:\n${rubric}\n\n${prompt}Run:\n${JSON.stringify(run, null, 1)}`;
}

/** A judge model's answer as a verdict; throws when it is not the JSON object asked for. */
export function verdictOf(text: string): JudgeVerdict {
  let answer: unknown;
  try {
    // Models sometimes fence JSON even when asked not to.
    answer = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    throw new Error(`the judge model's answer is not JSON: ${text.slice(0, 200)}`);
  }
  const verdict = answer as { [key: string]: JsonValue };
  if (typeof answer !== 'object' || answer === null || typeof verdict['pass'] !== 'boolean')
    throw new Error(`the judge model's answer has no boolean "pass": ${text.slice(0, 200)}`);
  const score = verdict['score'];
  const reason = verdict['reason'];
  return {
    pass: verdict['pass'],
    ...(typeof score === 'number' ? { score } : {}),
    ...(typeof reason === 'string' ? { reason } : {}),
  };
}
