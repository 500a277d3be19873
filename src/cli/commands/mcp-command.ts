import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { createRedactor } from '../../cassette/redact.js';
import { loadConfig } from '../../config/load-config.js';
import { CalltapeError } from '../../errors.js';
import { loadMcpMocks } from '../../mcp/load-mcp-mocks.js';
import { McpResponder } from '../../mcp/mcp-responder.js';
import { McpStore } from '../../mcp/mcp-store.js';
import { runMcpRelay, type McpMode } from '../../mcp/run-mcp-relay.js';
import { timeOrderedId } from '../../proxy/time-ordered-id.js';
import { reportError } from '../exit-codes.js';
import { resolveCassette } from '../resolve-cassette.js';

interface McpFlags {
  readonly name: string;
  readonly cassette?: string;
  readonly config?: string;
  readonly mode?: string;
  readonly mocks?: string;
  readonly session?: string;
}

const mcpModes: readonly McpMode[] = ['record', 'replay', 'passthrough'];

/**
 * `calltape mcp --name S [--mode …] -- <server command…>`: what an agent's MCP configuration
 * launches instead of a stdio server. stdout is the protocol channel, so calltape's own
 * messages only ever go to stderr.
 */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('relay an MCP stdio server, recording its answers into the cassette; replay or mock it without the server')
    .argument('[command...]', 'the server command, after -- (none: the mocks file is the whole server)')
    .requiredOption('--name <server>', 'the server name recordings and mocks are filed under')
    .option('--cassette <name>', 'cassette: a name (recordings/<name>.sqlite) or a path to a .sqlite file')
    .option('--config <file>', 'configuration file (default: ./proxy.config.json when present)')
    .option('--mode <mode>', 'record | replay | passthrough (default: the configured mode)')
    .option('--mocks <files>', 'mock files (JSON or YAML) whose mcp.<server> entry answers tools/call, comma-separated')
    .option('--session <id>', 'the LLM session these calls belong to (default: $CALLTAPE_SESSION)')
    .action(async (command: string[], flags: McpFlags) => {
      const debug = program.opts<{ debug?: boolean }>().debug === true;
      try {
        process.exitCode = await runMcp(command, flags);
      } catch (error) {
        process.exitCode = reportError(error, debug);
      }
      // The client may still hold stdin open after the server ended; nothing more will be read.
      process.stdin.destroy();
    });
}

async function runMcp(command: string[], flags: McpFlags): Promise<number> {
  const cwd = process.cwd();
  const { config } = loadConfig({ config: flags.config, mode: flags.mode, mocks: flags.mocks, cassette: flags.cassette === undefined ? undefined : resolveCassette(flags.cassette, cwd) }, process.env, cwd);
  const mode = config.mode as McpMode;
  if (!mcpModes.includes(mode)) throw new CalltapeError('CONFIG_INVALID', `--mode: ${config.mode} is not available for MCP servers (use ${mcpModes.join(', ')})`);
  const mocks = loadMcpMocks(config.mocks.files, flags.name, cwd);
  const declared = mocks.tools !== undefined || mocks.mocks.size > 0;
  if (command.length === 0 && mode !== 'replay' && !declared) throw new CalltapeError('CONFIG_INVALID', `no server command given and no mocks file declares mcp.${flags.name}`, `calltape mcp --name ${flags.name} -- <server command…>, or --mocks FILE with an mcp.${flags.name} entry`);
  if (mode === 'replay' && !existsSync(config.cassette) && !declared) throw new CalltapeError('CONFIG_INVALID', `${config.cassette}: no such cassette`, 'Record one first with --mode record.');
  const reader = mode === 'replay' && existsSync(config.cassette) ? new McpStore(config.cassette, { readonly: true }) : undefined;
  const writer = mode === 'record' ? new McpStore(config.cassette, { readonly: false }) : undefined;
  const given = flags.session ?? process.env['CALLTAPE_SESSION'];
  const responder = new McpResponder({
    server: flags.name,
    session: given ?? timeOrderedId(),
    sessionGiven: given !== undefined,
    redactor: createRedactor(config.redact.headers, config.redact.bodyPatterns),
    mocks,
    reader,
    writer,
  });
  try {
    const code = await runMcpRelay({ mode, command, env: process.env, responder, input: process.stdin, output: process.stdout, errors: process.stderr });
    for (const miss of responder.misses) process.stderr.write(`CASSETTE_MISS: ${miss}\n`);
    return code;
  } finally {
    reader?.close();
    writer?.close();
  }
}
