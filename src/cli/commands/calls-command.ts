import { resolve } from 'node:path';
import type { Command } from 'commander';
import { requireCassette } from '../../cassette/sqlite/cassette-files.js';
import { SqliteStore, type StoredToolCall } from '../../cassette/sqlite/sqlite-store.js';
import { loadConfig } from '../../config/load-config.js';
import { CalltapeError } from '../../errors.js';
import { reportError } from '../exit-codes.js';
import { resolveCassette } from '../resolve-cassette.js';
import { shorten } from '../shorten.js';
import { compactTable } from './compact-table.js';
import { hostedCallJson, listHostedCalls, renderHostedTable } from './hosted-calls.js';
import { listMcpCalls, mcpCallJson, renderMcpTable } from './mcp-calls.js';
import { terminalSafe } from '../../terminal-safe.js';

interface CallsFlags {
  readonly cassette?: string;
  readonly config?: string;
  readonly session?: string;
  readonly json?: boolean;
}

export function registerCallsCommand(program: Command): void {
  program
    .command('calls')
    .description('list captured tool calls (a table, or JSON lines with --json)')
    // Positional as in `cassettes show <cassette>`: `calltape calls recordings/x.sqlite` is what people type.
    .argument('[cassette]', 'the same as --cassette')
    .option(
      '--cassette <cassette>',
      'a name in recordings/ or a path (default: the configured cassette)',
    )
    .option('--config <file>', 'configuration file naming the cassette')
    .option('--session <id>', 'only calls of this session')
    .option('--json', 'one JSON object per line')
    .action((named: string | undefined, flags: CallsFlags) => {
      const debug = program.opts<{ debug?: boolean }>().debug === true;
      try {
        const [cassette, other] = [named, flags.cassette].map((given) =>
          given === undefined ? undefined : resolveCassette(given, process.cwd()),
        );
        // Two spellings of one file (`x` and `recordings/x.sqlite`) are one cassette.
        if (cassette !== undefined && other !== undefined && resolve(cassette) !== resolve(other))
          throw new CalltapeError(
            'CONFIG_INVALID',
            `calltape calls: two cassettes given (${named} and --cassette ${flags.cassette}); give one`,
          );
        const { config } = loadConfig(
          { config: flags.config, cassette: cassette ?? other },
          process.env,
          process.cwd(),
        );
        requireCassette(
          config.cassette,
          '`calltape record --cassette <name> -- <your agent>` (or `calltape proxy`)',
        );
        const store = new SqliteStore(config.cassette, { readonly: true });
        const hostedCalls = listHostedCalls(store, flags.session);
        // Cassettes recorded before hosted calls were told apart hold an Anthropic server_tool_use
        // as one of the model's calls too: list it once, as the hosted call it is.
        const hostedIds = new Set(
          hostedCalls.flatMap(({ interactionId, call }) =>
            call.id === undefined ? [] : [`${interactionId}\u0000${call.id}`],
          ),
        );
        const calls = store
          .toolCalls({ sessionId: flags.session })
          .filter(
            (call) =>
              call.callId === null || !hostedIds.has(`${call.interactionId}\u0000${call.callId}`),
          );
        const mcpCalls = listMcpCalls(
          config.cassette,
          flags.session === undefined ? calls : store.toolCalls(),
          flags.session,
        );
        store.close();
        if (flags.json) {
          // One trajectory: the model's calls, the provider's hosted calls and the MCP servers' answers in time order.
          // Hosted calls first: the sort keeps that order within a turn, and the provider ran them before the turn ended.
          const lines = [
            ...hostedCalls.map((call) => ({ at: call.startedAt, json: hostedCallJson(call) })),
            ...calls.map((call) => ({ at: call.startedAt, json: toJson(call) })),
            ...mcpCalls.map((call) => ({ at: call.exchange.startedAt, json: mcpCallJson(call) })),
          ];
          process.stdout.write(
            lines
              .sort((a, b) => a.at - b.at)
              .map((line) => `${JSON.stringify(line.json)}\n`)
              .join(''),
          );
        } else
          process.stdout.write(
            // A cassette of MCP calls alone is not "no tool calls captured".
            terminalSafe(
              (calls.length > 0 || mcpCalls.length === 0 ? renderTable(calls) : '') +
                renderHostedTable(hostedCalls) +
                renderMcpTable(mcpCalls),
            ),
          );
      } catch (error) {
        process.exitCode = reportError(error, debug);
      }
    });
}

function toJson(call: StoredToolCall): Record<string, unknown> {
  return {
    interaction_id: call.interactionId,
    session_id: call.sessionId,
    started_at: new Date(call.startedAt).toISOString(),
    model: call.model,
    status: call.status,
    choice: call.choice,
    call_id: call.callId,
    index: call.index,
    name: call.name,
    arguments: call.argumentsJson === null ? null : (JSON.parse(call.argumentsJson) as unknown),
    arguments_raw: call.argumentsRaw,
    parse_error: call.parseError,
    complete: call.complete,
    mocked: call.mocked,
  };
}

function renderTable(calls: readonly StoredToolCall[]): string {
  if (calls.length === 0) return 'no tool calls captured\n';
  const width = Math.max(40, (process.stdout.columns ?? 120) - 70);
  const table = compactTable(['time', 'session', 'model', 'tool', 'arguments', 'status']);
  for (const call of calls) {
    const flags = [
      call.complete ? '' : 'incomplete',
      call.parseError ? 'invalid JSON' : '',
      call.mocked ? 'mocked' : '',
    ]
      .filter(Boolean)
      .join(', ');
    table.push([
      new Date(call.startedAt).toISOString().slice(11, 23),
      shorten(call.sessionId, 14),
      call.model ?? '',
      call.name,
      shorten(call.argumentsRaw.replace(/\s+/g, ' '), width),
      flags ? `${call.status} (${flags})` : call.status,
    ]);
  }
  return `${table.toString()}\n${calls.length} tool call(s)\n`;
}
