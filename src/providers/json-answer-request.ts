import type { JsonValue } from '../trace/trace.js';

/** How calltape asks a model of its own (a judge, the case generator). */
export interface JsonAnswerModel {
  readonly model: string;
  readonly provider: 'openai' | 'anthropic';
  readonly temperature: number;
  readonly maxTokens: number;
}

/**
 * A request body asking for one JSON answer on the model's wire: Chat Completions with
 * `response_format: json_object`, or Messages with the instructions as `system`. Pure, so the
 * same inputs give the same bytes (and so the same cassette recording).
 */
export function jsonAnswerRequest(
  model: JsonAnswerModel,
  instructions: string,
  content: string,
): JsonValue {
  if (model.provider === 'anthropic') {
    return {
      model: model.model,
      max_tokens: model.maxTokens,
      temperature: model.temperature,
      system: instructions,
      messages: [{ role: 'user', content }],
    };
  }
  return {
    model: model.model,
    temperature: model.temperature,
    max_tokens: model.maxTokens,
    response_format: { type: 'json_object' },
    messages: [
      { role: 'system', content: instructions },
      { role: 'user', content },
    ],
  };
}
