import { request } from 'undici';
import { mocksHeader, sessionHeader } from '../proxy/headers.js';
import type { JsonValue } from '../trace/trace.js';
import type { RunConfig, SuiteCase } from '../scoring/suite-types.js';

/** How the runner reaches the proxy as the agent of direct mode. */
export interface DirectOptions {
  readonly apiKey: string;
  readonly mockSets: readonly string[] | undefined;
  readonly timeoutMs: number;
}

/**
 * Direct mode: the runner is the agent. It sends the case's prompt (after the run's system
 * prompt, with its tools and model) through the proxy under the case's session, so cassettes
 * and mocks apply, and the model's answer is the run. Resolves with why it could not run, or null.
 */
export async function driveDirect(
  proxyUrl: string,
  run: RunConfig,
  testCase: SuiteCase,
  session: string,
  options: DirectOptions,
): Promise<string | null> {
  const messages: JsonValue[] = testCase.messages
    ? [...testCase.messages]
    : [
        ...(run.system ? [{ role: 'system', content: run.system }] : []),
        { role: 'user', content: testCase.prompt ?? '' },
      ];
  const answer = await sendChat(proxyUrl, run, messages, session, options);
  return answer.error;
}

/**
 * One Chat Completions request of direct mode through the proxy (non-streamed): the run's model
 * and tools with `messages`, under the case's session and mock sets. Resolves with the answer's
 * body, or why the request failed.
 */
export async function sendChat(
  proxyUrl: string,
  run: RunConfig,
  messages: readonly JsonValue[],
  session: string,
  options: DirectOptions,
): Promise<{ readonly body: unknown; readonly error: string | null }> {
  const body = {
    model: run.model ?? '',
    messages,
    ...(run.tools.length > 0 ? { tools: run.tools } : {}),
  };
  const response = await request(`${proxyUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${options.apiKey}`,
      [sessionHeader]: session,
      ...(options.mockSets ? { [mocksHeader]: options.mockSets.join(',') || 'none' } : {}),
    },
    body: JSON.stringify(body),
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  const text = await response.body.text();
  if (response.statusCode < 400) return { body: parsed(text), error: null };
  return {
    body: null,
    error: `the model request failed with HTTP ${response.statusCode}: ${errorMessage(text)}`,
  };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function errorMessage(text: string): string {
  const body = parsed(text) as { error?: { message?: unknown } } | null;
  if (typeof body?.error?.message === 'string') return body.error.message;
  // Not an error body: show the start of the text.
  return text.slice(0, 300);
}
