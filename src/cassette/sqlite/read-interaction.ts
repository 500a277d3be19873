import { adapterById } from '../../providers/adapters.js';
import { routeOfStored } from '../../providers/route-of-stored.js';
import type { ResponseEnding } from '../../providers/provider-adapter.js';
import type { Interaction, InteractionStatus, JsonValue, ProviderId } from '../../trace/trace.js';
import { decodeContent } from '../decode-content.js';
import { headerText } from '../header-text.js';
import { parseBody } from '../match-key.js';

/** The `interactions` columns the trace is rebuilt from. */
/** A `mocked_calls` entry as stored (JSON in the interaction's row). */
interface StoredMockedCall {
  readonly call_id: string;
  readonly name: string;
  readonly mock_set: string;
  readonly result: string;
  readonly is_error: boolean;
  readonly agent_result?: string;
  readonly state?: { readonly [key: string]: JsonValue };
}

export interface InteractionRow {
  readonly hidden?: number;
  readonly mocked_calls?: string | null;
  readonly id: string;
  readonly session_id: string;
  readonly provider: string;
  readonly method: string;
  readonly path: string;
  readonly status: string;
  readonly http_status: number;
  readonly error: string | null;
  readonly started_at: number;
  readonly first_byte_ms: number | null;
  readonly total_ms: number;
  readonly ending: string | null;
  readonly request_body: Buffer;
  readonly response_headers: string | null;
  readonly response_body: Buffer | null;
}

/**
 * Rebuilds an interaction from its stored row: the raw (redacted) bytes are parsed again by
 * the adapter that captured them, so the trace always matches the bytes a replay would send
 * and improved parsers apply to old cassettes.
 */
export function readInteraction(row: InteractionRow): Interaction {
  const adapter = adapterById(row.provider);
  if (!adapter) throw new Error(`interaction ${row.id}: unknown provider ${row.provider}`);
  const route = routeOfStored(adapter, row.method, row.path);
  let response: Interaction['response'];
  if (row.response_body !== null && row.response_headers !== null) {
    const headers = JSON.parse(row.response_headers) as Record<string, string | string[]>;
    const decoded = decodeContent(row.response_body, headerText(headers, 'content-encoding'));
    response = adapter.parseResponse({
      httpStatus: row.http_status,
      contentType: headerText(headers, 'content-type')?.toLowerCase(),
      body: [decoded.bytes],
      ending: (row.ending ?? 'finished') as ResponseEnding,
      route,
    }).response;
  }
  return {
    id: row.id,
    sessionId: row.session_id,
    provider: row.provider as ProviderId,
    method: row.method,
    path: row.path,
    request: adapter.parseRequest(parseBody(row.request_body.toString('utf8')), route),
    ...(route?.read ? { read: true as const } : {}),
    response,
    status: row.status as InteractionStatus,
    httpStatus: row.http_status,
    error: row.error ?? undefined,
    timing: {
      startedAt: row.started_at,
      firstByteMs: row.first_byte_ms ?? undefined,
      totalMs: row.total_ms,
    },
    ...(row.mocked_calls
      ? {
          mocked: (JSON.parse(row.mocked_calls) as StoredMockedCall[]).map((call) => ({
            callId: call.call_id,
            name: call.name,
            set: call.mock_set,
            content: call.result,
            isError: call.is_error,
            ...(call.agent_result !== undefined ? { agentResult: call.agent_result } : {}),
            ...(call.state !== undefined ? { state: call.state } : {}),
          })),
        }
      : {}),
    ...(row.hidden === 1 ? { hidden: true } : {}),
  };
}
