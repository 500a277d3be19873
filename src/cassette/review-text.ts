import { stringify } from 'yaml';
import {
  showBody,
  showJson,
  type InteractionRecord,
  type ToolCallRecord,
} from './cassette-text.js';
import { sortBySession } from './session-order.js';
import { isVolatileHeader, VolatilePlaceholders } from './volatile-values.js';

/** One stored interaction and its tool calls, as read from the cassette in recording order. */
export interface StoredInteraction {
  readonly row: InteractionRecord;
  readonly toolCalls: readonly ToolCallRecord[];
}

/**
 * Columns the review text leaves out: they differ between two recordings of the same answer
 * (the row id, recording times, stream timings, the last replay run) or are derived from the
 * request shown beside them (the match key and canonical request).
 */
const leftOut = new Set([
  'seq',
  'id',
  'started_at',
  'first_byte_ms',
  'total_ms',
  'response_chunks',
  'last_replay_run',
  'request_key',
  'canonical_request',
]);
const bodyColumns = new Set([
  'request_body',
  'response_body',
  'agent_request_body',
  'agent_response_body',
]);
const headerColumns = new Set(['request_headers', 'response_headers']);

/**
 * The cassette as a reviewer reads it in `git diff` (the textconv): one YAML document per
 * interaction, ordered by session (case id, then sample) and turn, never by recording time, with
 * what changes on every recording left out or replaced by a placeholder. Recording the same
 * answers again gives the same text; re-recording one case changes its documents only.
 */
export function reviewText(interactions: readonly StoredInteraction[]): string {
  const sessionOf = (item: StoredInteraction): string => String(item.row['session_id']);
  let text = '';
  let session: string | undefined;
  let turn = 0;
  let placeholders = new VolatilePlaceholders();
  for (const item of sortBySession(interactions, sessionOf)) {
    if (sessionOf(item) !== session) {
      session = sessionOf(item);
      turn = 0;
      placeholders = new VolatilePlaceholders();
    }
    turn++;
    text += `---\n${reviewDocument(item, turn, placeholders)}`;
  }
  return text;
}

function reviewDocument(
  { row, toolCalls }: StoredInteraction,
  turn: number,
  placeholders: VolatilePlaceholders,
): string {
  const fields = Object.create(null) as Record<string, unknown>;
  fields['session_id'] = row['session_id'];
  fields['turn'] = turn;
  for (const [column, value] of Object.entries(row)) {
    if (leftOut.has(column) || column === 'session_id') continue;
    if (bodyColumns.has(column)) fields[column] = reviewBody(value, placeholders);
    else if (headerColumns.has(column)) fields[column] = stableHeaders(value);
    else if (column === 'mocked_calls' && typeof value === 'string')
      fields[column] = placeholders.replaceIn(showJson(value));
    else fields[column] = value;
  }
  fields['tool_calls'] = toolCalls.map((call) => ({
    ...call,
    call_id:
      typeof call['call_id'] === 'string' ? placeholders.id(call['call_id']) : call['call_id'],
    arguments_json:
      typeof call['arguments_json'] === 'string'
        ? showJson(call['arguments_json'])
        : call['arguments_json'],
  }));
  return stringify(fields, { lineWidth: 0, aliasDuplicateObjects: false });
}

function reviewBody(value: unknown, placeholders: VolatilePlaceholders): unknown {
  if (!(value instanceof Uint8Array)) return value;
  const body = showBody(value);
  if (body === null || 'base64' in body) return body;
  if ('json' in body) return { json: placeholders.replaceIn(body.json) };
  return {
    text: body.text
      .split('\n')
      .map((line) => streamLine(line, placeholders))
      .join('\n'),
  };
}

/** An SSE `data:` line with its JSON event's volatile fields replaced; any other line as it is. */
function streamLine(line: string, placeholders: VolatilePlaceholders): string {
  const match = /^data: ?(?=[{[])/.exec(line);
  if (!match) return line;
  try {
    const event: unknown = JSON.parse(line.slice(match[0].length));
    return `${match[0]}${JSON.stringify(placeholders.replaceIn(event))}`;
  } catch {
    return line;
  }
}

function stableHeaders(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const shown = showJson(value);
  if (!('json' in shown) || shown.json === null || typeof shown.json !== 'object') return shown;
  const kept = Object.create(null) as Record<string, unknown>;
  for (const [name, header] of Object.entries(shown.json))
    if (!isVolatileHeader(name)) kept[name] = header;
  return { json: kept };
}
