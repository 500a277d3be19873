import type { AgentReply } from './conversation-agent.js';

/** What an agent said in answer to a turn, whichever protocol carried it. */
export interface AgentAnswer {
  /** What the agent said back to the user; null when it said nothing. */
  readonly text: string | null;
  /** The agent ends the conversation after this answer (gave up, said goodbye). */
  readonly end: boolean;
  /** Why it ended, in its words; null when it gave none. */
  readonly reason: string | null;
}

/** An answer as the conversation loop takes it. */
export function agentReply(answer: AgentAnswer): AgentReply {
  return {
    text: answer.text,
    ...(answer.end ? { ended: true } : {}),
    ...(answer.reason !== null ? { reason: answer.reason } : {}),
  };
}

/** One line of a process agent's stdout, read. */
export type AgentLine =
  /** `{"type":"reply","turn":N,"text":…}` (or `{"type":"end",…}`, an answer with end set). */
  | { readonly kind: 'answer'; readonly turn: number | null; readonly answer: AgentAnswer }
  /** Not a protocol line (a log line, other JSON): kept for the report, otherwise ignored. */
  | { readonly kind: 'output' }
  /** A reply or end line that breaks the protocol: the turn is an error saying `problem`. */
  | { readonly kind: 'malformed'; readonly problem: string };

/** The line types an agent may write; any other `type` is output (an agent's own JSON logs). */
const answerTypes = new Set(['reply', 'end']);

/**
 * Reads one line of a process agent's stdout (docs/reference/conversation-protocol.md). A line
 * is a protocol line when it is a JSON object whose `type` is `reply` or `end`; a line that starts
 * like one (`{"type":"reply"`) but is not valid JSON is malformed rather than output, so a reply
 * cut short says so instead of waiting out the turn's timeout.
 */
export function readAgentLine(line: string): AgentLine {
  const text = line.trim();
  if (!text.startsWith('{')) return { kind: 'output' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return /^\{\s*"type"\s*:\s*"(?:reply|end)"/.test(text)
      ? { kind: 'malformed', problem: `not valid JSON (${(error as Error).message})` }
      : { kind: 'output' };
  }
  if (!isObject(value) || !Object.hasOwn(value, 'type')) return { kind: 'output' };
  const type = value['type'];
  if (typeof type !== 'string' || !answerTypes.has(type)) return { kind: 'output' };
  const turn = value['turn'];
  const hasTurn = Object.hasOwn(value, 'turn');
  if (hasTurn && !isTurnNumber(turn))
    return {
      kind: 'malformed',
      problem: `turn: expected a whole number from 1, got ${show(turn)}`,
    };
  if (type === 'reply' && !hasTurn)
    return { kind: 'malformed', problem: 'turn: a reply names the turn it answers' };
  const answer = readAnswer(value, type === 'end');
  if (typeof answer === 'string') return { kind: 'malformed', problem: answer };
  return { kind: 'answer', turn: hasTurn ? (turn as number) : null, answer };
}

/**
 * The answer fields of a reply line, an end line or an HTTP agent's reply body: `text` (a string
 * or null; required unless the message ends the conversation), `end` (boolean, optional) and
 * `reason` (string, optional). Returns what is wrong when a field breaks the protocol.
 */
export function readAnswer(
  value: Readonly<Record<string, unknown>>,
  ends: boolean,
): AgentAnswer | string {
  const end = Object.hasOwn(value, 'end') ? value['end'] : false;
  if (typeof end !== 'boolean') return `end: expected true or false, got ${show(end)}`;
  const hasText = Object.hasOwn(value, 'text');
  const text = hasText ? value['text'] : null;
  if (!hasText && !ends && !end) return 'text: required (the reply to the user, or null)';
  if (text !== null && typeof text !== 'string')
    return `text: expected a string or null, got ${show(text)}`;
  const reason = Object.hasOwn(value, 'reason') ? value['reason'] : null;
  if (reason !== null && typeof reason !== 'string')
    return `reason: expected a string, got ${show(reason)}`;
  return { text, end: ends || end, reason };
}

/** A JSON object (not an array, not null). */
export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTurnNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1;
}

/** A value for an error message, short. */
function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
