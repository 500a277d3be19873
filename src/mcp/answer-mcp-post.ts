import type { JsonValue } from '../trace/trace.js';
import { responseMessage, type JsonRpcId } from './json-rpc.js';
import type { McpPost } from './mcp-http-request.js';
import type { McpResponder } from './mcp-responder.js';
import { interimMessages, progressTokenOf, type InterimMessage } from './replay-interim.js';

/**
 * What calltape answers a POST with when it stands in for the server: a JSON body, or 202 when
 * nothing in it asks. `interim`: what the server sent before the answer when it was recorded
 * (a single request's progress and requests to the client), to be streamed ahead of the body.
 */
export type McpPostAnswer =
  | {
      readonly status: 200;
      readonly body: JsonValue;
      readonly interim: readonly InterimMessage[];
    }
  | { readonly status: 202 };

/**
 * Answers every request of a POST from the responder (mocks, then the cassette, else a miss
 * error carrying the client's own id); notifications and responses the client sends are
 * accepted and dropped, as a server that had nothing to do with them would.
 */
export function answerMcpPost(
  responder: McpResponder,
  post: McpPost,
  nextId: () => JsonRpcId,
): McpPostAnswer {
  const answers: JsonValue[] = [];
  let interim: InterimMessage[] = [];
  for (const message of post.messages) {
    if (message.kind !== 'request') continue;
    const answer = responder.answerOffline(message.method, message.params, message.id);
    answers.push(responseMessage(message.id, answer));
    if (!post.batch)
      interim = interimMessages(answer.during ?? [], progressTokenOf(message.params), nextId);
  }
  if (answers.length === 0) return { status: 202 };
  return { status: 200, body: post.batch ? answers : (answers[0] as JsonValue), interim };
}
