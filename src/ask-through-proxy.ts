import { request } from 'undici';
import { adapterById } from './providers/adapters.js';
import type { JsonValue } from './trace/trace.js';

/** Where calltape's own model requests (judges, case generation) go: its proxy, so each is recorded and replayed. */
export interface ModelEndpoint {
  /** The proxy's origin (`http://127.0.0.1:4545`). */
  readonly url: string;
  /** Sent upstream in record and auto modes; calltape never stores it. */
  readonly apiKey: string;
  readonly timeoutMs: number;
}

/** The wire a model is asked on. */
export type ModelProvider = 'openai' | 'anthropic';

/**
 * Sends one non-streaming request through the proxy under `session` on the provider's own wire
 * (Chat Completions or Messages) and gives the answer's text. Rejects with the HTTP status and
 * the provider's error (a replay miss included) when there is no complete answer.
 */
export async function askThroughProxy(
  provider: ModelProvider,
  body: JsonValue,
  session: string,
  endpoint: ModelEndpoint,
): Promise<string> {
  const anthropic = provider === 'anthropic';
  const adapter = adapterById(anthropic ? 'anthropic-messages' : 'openai-chat');
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-calltape-session': session,
  };
  if (anthropic)
    Object.assign(headers, { 'x-api-key': endpoint.apiKey, 'anthropic-version': '2023-06-01' });
  else headers['authorization'] = `Bearer ${endpoint.apiKey}`;
  const response = await request(
    `${endpoint.url}${anthropic ? '/v1/messages' : '/v1/chat/completions'}`,
    {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      headersTimeout: endpoint.timeoutMs,
      bodyTimeout: endpoint.timeoutMs,
    },
  );
  const bytes = new Uint8Array(await response.body.arrayBuffer());
  const contentType = response.headers['content-type'];
  const parsed = adapter?.parseResponse({
    httpStatus: response.statusCode,
    contentType: typeof contentType === 'string' ? contentType.toLowerCase() : undefined,
    body: [bytes],
    ending: 'finished',
  });
  if (!parsed || parsed.status !== 'complete' || !parsed.response)
    // The parser's error already names the status (`HTTP 404: …`); say it once.
    throw new Error(
      parsed?.error ??
        `HTTP ${response.statusCode}: ${new TextDecoder().decode(bytes).slice(0, 300)}`,
    );
  return parsed.response.output.text;
}
