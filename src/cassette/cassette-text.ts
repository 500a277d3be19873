import { parse, stringify } from 'yaml';

/**
 * The readable text form of a cassette: one YAML document per interaction and a separate
 * timings document, built so that text → row gives back exactly the stored row. Bodies are
 * shown as structured YAML when re-serialising the JSON gives the same bytes, as a text block
 * when they are text (SSE streams), and as base64 otherwise (compressed bytes).
 */

/** Every column of an `interactions` row except `seq` (insertion order is the file order). */
export interface InteractionRecord {
  readonly [column: string]: string | number | Uint8Array | null;
}

/** Every column of a `tool_calls` row except `interaction_id`, `session_id` (taken from the interaction). */
export interface ToolCallRecord {
  readonly [column: string]: string | number | null;
}

const blobColumns = ['request_body', 'response_body', 'agent_request_body', 'agent_response_body'];
const jsonColumns = ['request_headers', 'response_headers', 'canonical_request', 'mocked_calls'];
const timingColumns = ['started_at', 'first_byte_ms', 'total_ms', 'response_chunks'];

/** A body as the text shows it. */
export type Body = { json: unknown } | { text: string } | { base64: string } | null;

/** The interaction document (without timings) and the timings document. */
export function toText(
  row: InteractionRecord,
  toolCalls: readonly ToolCallRecord[],
): { interaction: string; timings: string } {
  const fields: Record<string, unknown> = {};
  const timings: Record<string, unknown> = { id: row['id'] };
  for (const [column, value] of Object.entries(row)) {
    if (timingColumns.includes(column))
      timings[column] =
        column === 'response_chunks' && typeof value === 'string' ? JSON.parse(value) : value;
    else if (blobColumns.includes(column)) fields[column] = showBody(value as Uint8Array | null);
    else if (jsonColumns.includes(column) && typeof value === 'string')
      fields[column] = showJson(value);
    else fields[column] = value;
  }
  fields['tool_calls'] = toolCalls.map((call) => ({
    ...call,
    arguments_json:
      typeof call['arguments_json'] === 'string'
        ? showJson(call['arguments_json'])
        : call['arguments_json'],
  }));
  return {
    interaction: stringify(fields, { lineWidth: 0, aliasDuplicateObjects: false }),
    timings: stringify(timings, { lineWidth: 0 }),
  };
}

/** Reads the two documents back into the exact row and tool calls. */
export function fromText(
  interaction: string,
  timings: string,
): { row: InteractionRecord; toolCalls: ToolCallRecord[] } {
  const fields = parse(interaction) as Record<string, unknown>;
  const times = parse(timings) as Record<string, unknown>;
  if (fields['id'] !== times['id'])
    throw new Error(`timings belong to ${String(times['id'])}, not ${String(fields['id'])}`);
  const row: Record<string, string | number | Uint8Array | null> = {};
  for (const [column, value] of Object.entries(fields)) {
    if (column === 'tool_calls') continue;
    if (blobColumns.includes(column)) row[column] = readBody(value as Body);
    else if (jsonColumns.includes(column)) row[column] = readJson(value);
    else row[column] = value as string | number | null;
  }
  for (const column of timingColumns) {
    const value = times[column];
    row[column] =
      column === 'response_chunks'
        ? value === null || value === undefined
          ? null
          : JSON.stringify(value)
        : ((value as number | null | undefined) ?? null);
  }
  const toolCalls = ((fields['tool_calls'] as Record<string, unknown>[] | undefined) ?? []).map(
    (call) =>
      ({
        ...call,
        arguments_json: call['arguments_json'] === null ? null : readJson(call['arguments_json']),
      }) as ToolCallRecord,
  );
  return { row, toolCalls };
}

/** JSON text shown structured when that is lossless, else kept as text. */
export function showJson(text: string): { json: unknown } | { text: string } {
  try {
    const value: unknown = JSON.parse(text);
    return JSON.stringify(value) === text ? { json: value } : { text };
  } catch {
    return { text };
  }
}

function readJson(value: unknown): string | null {
  if (value === null) return null;
  const shown = value as { json?: unknown; text?: string };
  return 'json' in shown ? JSON.stringify(shown.json) : (shown.text ?? '');
}

/** Bytes shown as JSON when lossless, else as text when it is UTF-8, else as base64. */
export function showBody(bytes: Uint8Array | null): Body {
  if (bytes === null) return null;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  // Only text that encodes back to the same bytes may be shown as text.
  if (Buffer.from(text, 'utf8').equals(Buffer.from(bytes))) {
    const shown = showJson(text);
    return shown as Body;
  }
  return { base64: Buffer.from(bytes).toString('base64') };
}

function readBody(body: Body): Uint8Array | null {
  if (body === null) return null;
  if ('base64' in body) return Buffer.from(body.base64, 'base64');
  if ('json' in body) return Buffer.from(JSON.stringify(body.json), 'utf8');
  return Buffer.from(body.text, 'utf8');
}
