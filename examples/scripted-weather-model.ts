import {
  chatCompletion,
  chatCompletionChunks,
  encodeSse,
  type ScriptedTurn,
} from '../test/support/openai-chat-chunks.js';
import { seededRandom } from '../test/support/random.js';
import type { ReceivedRequest, ScriptedResponse } from '../test/support/scripted-upstream.js';

/**
 * The bundled stand-in for a real model, so the demo runs offline: it answers the weather
 * agent like gpt-4o-mini would — parallel weather calls, then an email, then a summary —
 * streamed in OpenAI's wire format with the bytes split at random positions.
 */
export function scriptedWeatherModel(
  request: ReceivedRequest,
  callNumber: number,
): ScriptedResponse {
  const body = JSON.parse(request.body) as { stream?: boolean; messages?: { role: string }[] };
  const toolResults = (body.messages ?? []).filter((message) => message.role === 'tool').length;
  const turn: ScriptedTurn =
    toolResults === 0
      ? {
          toolCalls: [
            {
              id: 'call_paris',
              name: 'get_weather',
              arguments: '{"city":"Paris","unit":"celsius"}',
            },
            {
              id: 'call_tokyo',
              name: 'get_weather',
              arguments: '{"city":"Tokyo","unit":"celsius"}',
            },
          ],
        }
      : toolResults === 2
        ? {
            toolCalls: [
              {
                id: 'call_email',
                name: 'send_email',
                arguments:
                  '{"to":"ops@example.com","subject":"Weather","body":"Paris 12°C, Tokyo 18°C, both cloudy."}',
              },
            ],
          }
        : {
            text: 'Paris is 12°C and Tokyo 18°C, both cloudy. I emailed the summary to ops@example.com.',
          };
  if (!body.stream) return { kind: 'json', body: chatCompletion(turn) };
  return {
    kind: 'sse',
    body: encodeSse(chatCompletionChunks(turn, seededRandom(callNumber + 1), {})),
    split: { seed: callNumber + 1, maxPiece: 24 },
  };
}
