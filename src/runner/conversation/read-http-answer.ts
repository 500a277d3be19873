import { isObject, readAnswer, type AgentAnswer } from './read-agent-line.js';

/**
 * Reads an HTTP agent's answer to a turn (docs/reference/conversation-protocol.md): a 2xx status
 * and a JSON object `{ "text": …, "end"?: true, "reason"?: … }`. Returns what is wrong otherwise,
 * quoting the start of the body (an agent's error page says why it failed).
 */
export function readHttpAnswer(status: number, body: string): AgentAnswer | string {
  if (status < 200 || status > 299) return `HTTP ${status}${body.trim() ? `: ${start(body)}` : ''}`;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return `the body is not JSON (${(error as Error).message}): ${start(body)}`;
  }
  if (!isObject(value)) return `the body is not a JSON object: ${start(body)}`;
  return readAnswer(value, false);
}

function start(body: string): string {
  const text = body.trim().replace(/\s+/g, ' ');
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
