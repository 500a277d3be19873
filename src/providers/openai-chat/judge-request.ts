import type { JsonValue } from '../../trace/trace.js';

/**
 * A Chat Completions request asking a model for a JSON verdict: temperature 0 and a JSON answer,
 * so the same run and rubric give the same request body (and so the same cassette recording).
 */
export function openAiChatJudgeRequest(
  model: string,
  instructions: string,
  content: string,
): JsonValue {
  return {
    model,
    temperature: 0,
    response_format: { type: 'json_object' },
    messages: [
      { role: 'system', content: instructions },
      { role: 'user', content },
    ],
  };
}
