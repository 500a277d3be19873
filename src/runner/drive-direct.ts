import { request } from 'undici';
import { mocksHeader, sessionHeader } from '../proxy/headers.js';
import type { JsonValue } from '../trace/trace.js';
import type { RunConfig, SuiteCase } from '../scoring/suite-types.js';

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
  options: {
    readonly apiKey: string;
    readonly mockSets: readonly string[] | undefined;
    readonly timeoutMs: number;
  },
): Promise<string | null> {
  const messages: JsonValue[] = testCase.messages
    ? [...testCase.messages]
    : [
        ...(run.system ? [{ role: 'system', content: run.system }] : []),
        { role: 'user', content: testCase.prompt ?? '' },
      ];
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
  if (response.statusCode < 400) return null;
  return `the model request failed with HTTP ${response.statusCode}: ${errorMessage(text)}`;
}

function errorMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') return parsed.error.message;
  } catch {
    // Not JSON: show the start of the text.
  }
  return text.slice(0, 300);
}
