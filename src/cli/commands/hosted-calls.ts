import type { SqliteStore } from '../../cassette/sqlite/sqlite-store.js';
import type { HostedToolCall } from '../../trace/trace.js';
import { shorten } from '../shorten.js';
import { compactTable } from './compact-table.js';

/** A tool the provider ran itself (a hosted call), as `calltape calls` lists it. */
export interface ListedHostedCall {
  readonly call: HostedToolCall;
  readonly interactionId: string;
  readonly sessionId: string;
  readonly startedAt: number;
  readonly model: string | undefined;
}

/** The hosted calls of a cassette (parsed again from the stored answers), optionally of one session. */
export function listHostedCalls(
  store: SqliteStore,
  session: string | undefined,
): ListedHostedCall[] {
  return store.interactions({ sessionId: session }).flatMap((interaction) =>
    (interaction.response?.output.hostedCalls ?? []).map((call) => ({
      call,
      interactionId: interaction.id,
      sessionId: interaction.sessionId,
      startedAt: interaction.timing.startedAt,
      model: interaction.response?.model ?? interaction.request.model,
    })),
  );
}

export function hostedCallJson(listed: ListedHostedCall): Record<string, unknown> {
  const { call } = listed;
  return {
    kind: 'hosted',
    hosted_kind: call.kind,
    interaction_id: listed.interactionId,
    session_id: listed.sessionId,
    started_at: new Date(listed.startedAt).toISOString(),
    model: listed.model ?? null,
    call_id: call.id ?? null,
    server: call.server ?? null,
    name: call.name,
    arguments: call.arguments.ok ? call.arguments.value : null,
    arguments_raw: call.argumentsRaw,
    complete: call.complete,
    result: call.result?.text ?? null,
    failed: call.result?.isError ?? null,
  };
}

export function renderHostedTable(calls: readonly ListedHostedCall[]): string {
  if (calls.length === 0) return '';
  const table = compactTable(['time', 'session', 'server', 'tool', 'arguments', 'result']);
  for (const { call, sessionId, startedAt } of calls) {
    const outcome = call.result === undefined ? 'no result' : call.result.isError ? 'failed' : 'ok';
    table.push([
      new Date(startedAt).toISOString().slice(11, 23),
      shorten(sessionId, 14),
      call.server ?? '(provider)',
      call.name,
      shorten(call.argumentsRaw.replace(/\s+/g, ' '), 40),
      call.complete ? outcome : `${outcome} (incomplete)`,
    ]);
  }
  return `${table.toString()}\n${calls.length} hosted tool call(s), run by the provider\n`;
}
