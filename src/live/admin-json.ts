import type { IncomingMessage, ServerResponse } from 'node:http';
import { CalltapeError } from '../errors.js';
import { adminWriteAllowed } from './admin-request-checks.js';
import { noReferrer } from './admin-routes.js';

/** An admin JSON error body: the OpenAI error envelope every calltape API answers in. */
export function adminErrorBody(message: string, type: string): string {
  return JSON.stringify({ error: { message, type } });
}

/** Answers an admin JSON error. */
export function sendAdminError(
  response: ServerResponse,
  status: number,
  message: string,
  type: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  response
    .writeHead(status, { 'content-type': 'application/json', ...noReferrer, ...headers })
    .end(adminErrorBody(message, type));
}

/**
 * Answers with the value `compute` returns, as JSON; a CalltapeError is the caller's mistake
 * (400, its message), anything else ours (500).
 */
export function answerAdminJson(response: ServerResponse, compute: () => unknown): void {
  let body: string;
  try {
    body = JSON.stringify(compute());
  } catch (error) {
    const ours = !(error instanceof CalltapeError);
    sendAdminError(
      response,
      ours ? 500 : 400,
      `calltape: ${(error as Error).message}`,
      ours ? 'calltape_error' : 'invalid_request_error',
    );
    return;
  }
  response
    .writeHead(200, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      ...noReferrer,
    })
    .end(body);
}

/** Answers 405 naming the methods a path takes. */
export function refuseMethod(response: ServerResponse, allow: string): void {
  sendAdminError(response, 405, 'calltape: method not allowed here', 'invalid_request_error', {
    allow,
  });
}

/**
 * Takes an admin write (a POST that changes a file): JSON from the app's own origin (CSRF, see
 * `adminWriteAllowed`), at most `maxBytes`. The body's text goes to `handle`, whose value is the
 * answer; a refused write is answered here and `handle` never runs.
 */
export function takeAdminWrite(
  request: IncomingMessage,
  response: ServerResponse,
  options: { readonly what: string; readonly maxBytes: number },
  handle: (body: string) => unknown,
): void {
  if (!adminWriteAllowed(request.headers)) {
    request.resume();
    sendAdminError(
      response,
      403,
      `calltape: ${options.what} are written by calltape's own app only (same origin, JSON)`,
      'calltape_forbidden_origin',
    );
    return;
  }
  readBoundedBody(request, options.maxBytes).then(
    (body) => answerAdminJson(response, () => handle(body)),
    () =>
      sendAdminError(
        response,
        413,
        `calltape: a request here holds at most ${options.maxBytes} bytes`,
        'invalid_request_error',
      ),
  );
}

function readBoundedBody(request: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        request.removeAllListeners('data');
        request.resume();
        reject(new Error('too large'));
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
