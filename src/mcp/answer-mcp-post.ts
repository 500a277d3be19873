import type { JsonValue } from '../trace/trace.js';
import { responseMessage } from './json-rpc.js';
import type { McpPost } from './mcp-http-request.js';
import type { McpResponder } from './mcp-responder.js';

/** What calltape answers a POST with when it stands in for the server: a JSON body, or 202 when nothing in it asks. */
export type McpPostAnswer =
  { readonly status: 200; readonly body: JsonValue } | { readonly status: 202 };

/**
 * Answers every request of a POST from the responder (mocks, then the cassette, else a miss
 * error carrying the client's own id); notifications and responses the client sends are
 * accepted and dropped, as a server that had nothing to do with them would.
 */
export function answerMcpPost(responder: McpResponder, post: McpPost): McpPostAnswer {
  const answers: JsonValue[] = [];
  for (const message of post.messages) {
    if (message.kind === 'request')
      answers.push(
        responseMessage(
          message.id,
          responder.answerOffline(message.method, message.params, message.id),
        ),
      );
  }
  if (answers.length === 0) return { status: 202 };
  return { status: 200, body: post.batch ? answers : (answers[0] as JsonValue) };
}
