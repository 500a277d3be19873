import { existsSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { readInteractions } from '../cassette/sqlite/read-interactions.js';
import { SqliteStore } from '../cassette/sqlite/sqlite-store.js';
import { joinMcpCalls } from '../mcp/join-mcp-calls.js';
import { McpStore } from '../mcp/mcp-store.js';
import { requireServedCassette } from '../runner/served-cassette.js';
import type { Interaction, Message } from '../trace/trace.js';
import type { CaseRecording, RecordedMcpCall, RecordedRound } from './api-types.js';

/**
 * Where a stored run's cassette is: found by its path from the runs database's folder (so a
 * project checked out elsewhere finds it, as baselines do), else by the path stored with the run.
 */
export function runCassette(
  stored: string,
  key: string | null,
  runsDb: string,
  cwd: string,
): string {
  if (key !== null) {
    const beside = resolve(dirname(runsDb), key);
    if (existsSync(beside)) return beside;
  }
  return resolve(cwd, stored);
}

/** A path as answers show it: relative to the project when inside it, `/`-separated. */
export function shownPath(path: string, cwd: string): string {
  const inside = relative(cwd, path);
  return (inside.startsWith('..') || inside === '' ? path : inside).split(sep).join('/');
}

const json = (value: unknown): string => (value === undefined ? '' : JSON.stringify(value));

/**
 * A case's recording read from its cassette, read-only: every round trip of its session (the
 * messages each added, what the model wrote and called, the results it got back, mocked or
 * not, hosted tool calls) and the MCP calls joined to it. Only cassettes inside the served
 * project are opened; anything else (missing, outside, no such session) is said in `note`.
 */
export function caseRecording(cassette: string, session: string, cwd: string): CaseRecording {
  const shown = shownPath(cassette, cwd);
  const absent = (note: string): CaseRecording => ({
    cassette: shown,
    session,
    present: false,
    note,
    rounds: [],
    mcp: [],
  });
  try {
    requireServedCassette(cassette, { cwd, own: '', recordings: cwd });
  } catch {
    return absent('The cassette is outside the project calltape view serves, so it is not read.');
  }
  if (!existsSync(cassette))
    return absent('The cassette is not here (not committed, or recorded on another machine).');
  const interactions = readInteractions(cassette, { sessionId: session }).sort(
    (left, right) => left.timing.startedAt - right.timing.startedAt,
  );
  if (interactions.length === 0) return absent(`The cassette has no session "${session}".`);
  return {
    cassette: shown,
    session,
    present: true,
    note: null,
    rounds: rounds(interactions),
    mcp: mcpCalls(cassette, session),
  };
}

function rounds(interactions: readonly Interaction[]): RecordedRound[] {
  // A call's result arrives in a later request, as a tool message answering its id.
  const results = new Map<string, Message>();
  for (const interaction of interactions)
    for (const message of interaction.request.messages)
      if (message.role === 'tool' && message.toolCallId !== undefined)
        results.set(message.toolCallId, message);
  let seen = 0;
  return interactions.map((interaction) => {
    const messages = interaction.request.messages;
    // Each request carries the conversation so far: show what it added (a shorter one starts over).
    const added = messages.length >= seen && seen > 0 ? messages.slice(seen) : messages;
    const output = interaction.response?.output;
    seen = messages.length + (output ? 1 : 0);
    const mocked = new Map((interaction.mocked ?? []).map((result) => [result.callId, result]));
    return {
      started_at: new Date(interaction.timing.startedAt).toISOString(),
      duration_ms: interaction.timing.totalMs,
      status: interaction.status,
      model: interaction.response?.model ?? interaction.request.model ?? null,
      input_tokens: interaction.response?.usage?.inputTokens ?? null,
      output_tokens: interaction.response?.usage?.outputTokens ?? null,
      messages: added
        .filter((message) => message.role !== 'tool')
        .map((message) => ({ role: message.role, text: messageText(message) })),
      text: output?.text ?? interaction.error ?? '',
      calls: (output?.toolCalls ?? []).map((call) => {
        const mock = call.id === undefined ? undefined : mocked.get(call.id);
        const result = call.id === undefined ? undefined : results.get(call.id);
        return {
          id: call.id ?? null,
          name: call.name,
          arguments: call.argumentsRaw,
          result: mock?.content ?? result?.text ?? null,
          failed: mock?.isError ?? result?.isError ?? false,
          mocked_by: mock?.set ?? null,
        };
      }),
      hosted: (output?.hostedCalls ?? []).map((call) => ({
        kind: call.kind,
        server: call.server ?? null,
        name: call.name,
        arguments: call.argumentsRaw,
        result: call.result?.text ?? null,
        failed: call.result?.isError ?? false,
      })),
      hidden: interaction.hidden === true,
    };
  });
}

function messageText(message: Message): string {
  const calls = message.toolCalls.map((call) => `[called ${call.name}(${call.argumentsRaw})]`);
  return [message.text, ...calls].filter(Boolean).join('\n');
}

/** The session's MCP tools/calls, joined to the model's calls as `calltape calls` joins them. */
function mcpCalls(cassette: string, session: string): RecordedMcpCall[] {
  const mcp = new McpStore(cassette, { readonly: true });
  const store = new SqliteStore(cassette, { readonly: true });
  try {
    const exchanges = mcp.list({ method: 'tools/call' });
    if (exchanges.length === 0) return [];
    const joined = joinMcpCalls(store.toolCalls(), exchanges);
    return exchanges
      .filter((exchange) => (joined.get(exchange.id)?.sessionId ?? exchange.sessionId) === session)
      .map((exchange) => {
        const params = exchange.params;
        const args =
          params !== null && typeof params === 'object' && !Array.isArray(params)
            ? (params as Record<string, unknown>)['arguments']
            : undefined;
        return {
          server: exchange.server,
          name: exchange.subject ?? '',
          arguments: json(args ?? {}),
          result: exchange.error
            ? json(exchange.error)
            : exchange.result === undefined
              ? null
              : json(exchange.result),
          failed: exchange.failed,
          mocked: exchange.mockSet !== undefined,
        };
      });
  } finally {
    mcp.close();
    store.close();
  }
}
