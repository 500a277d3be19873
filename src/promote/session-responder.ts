import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedAnswer } from './promotion-plan.js';

/** A loopback stand-in for the model that answers each promoted case with its session's answers. */
export interface SessionResponder {
  /** The upstream origin for the case at this position (`<origin>/<position>`). */
  upstreamFor(position: number): string;
  /** How many answers the case at this position has been given. */
  served(position: number): number;
  close(): Promise<void>;
}

/**
 * Starts the responder on a port the OS picks. A request under `/<position>/` gets that case's
 * next recorded answer, byte for byte; once they are used up it answers 500 in the OpenAI error
 * shape, saying so, so a replay that asks more of the model than the session did fails loudly.
 */
export async function startSessionResponder(
  answers: readonly (readonly RecordedAnswer[])[],
): Promise<SessionResponder> {
  const counts = answers.map(() => 0);
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    // The body is not needed: the answer is chosen by order. Drain it so the connection stays usable.
    request.resume();
    request.on('end', () => {
      const position = Number(/^\/(\d+)\//.exec(request.url ?? '')?.[1] ?? -1);
      const queue = answers[position];
      const served = counts[position] ?? 0;
      const answer = queue?.[served];
      if (queue === undefined || answer === undefined) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            error: {
              message: `calltape cases promote: the session made ${queue?.length ?? 0} round trip(s) and the replay asked for another`,
              type: 'calltape_promote',
            },
          }),
        );
        return;
      }
      counts[position] = served + 1;
      response.writeHead(answer.httpStatus, { 'content-type': answer.contentType });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    upstreamFor: (position) => `http://127.0.0.1:${port}/${position}`,
    served: (position) => counts[position] ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
