import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { createRedactor } from '../../cassette/redact.js';
import { loadConfig } from '../../config/load-config.js';
import { missingCassetteHint } from '../../cassette/missing-cassette-hint.js';
import { CalltapeError } from '../../errors.js';
import { loadMcpMocks } from '../../mcp/load-mcp-mocks.js';
import type { Config } from '../../config/config.js';
import { reportedCall } from '../../mcp/mcp-call-report.js';
import { McpCallReporter } from '../../mcp/mcp-call-reporter.js';
import type { McpExchange } from '../../mcp/mcp-exchange.js';
import { McpResponder, type McpDiff } from '../../mcp/mcp-responder.js';
import { McpStore } from '../../mcp/mcp-store.js';
import { runMcpRelay, type McpMode } from '../../mcp/run-mcp-relay.js';
import { timeOrderedId } from '../../cassette/time-ordered-id.js';
import { reportError } from '../exit-codes.js';
import { resolveCassette } from '../resolve-cassette.js';

interface McpFlags {
  readonly name: string;
  readonly cassette?: string;
  readonly config?: string;
  readonly mode?: string;
  readonly mocks?: string;
  readonly session?: string;
  readonly reportTo?: string;
}

/**
 * `calltape mcp --name S [--mode …] -- <server command…>`: what an agent's MCP configuration
 * launches instead of a stdio server. stdout is the protocol channel, so calltape's own
 * messages only ever go to stderr.
 */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'relay an MCP stdio server, recording its answers into the cassette; replay or mock it without the server',
    )
    .argument(
      '[command...]',
      'the server command, after -- (none: the mocks file is the whole server)',
    )
    .requiredOption('--name <server>', 'the server name recordings and mocks are filed under')
    .option(
      '--cassette <name>',
      'cassette: a name (recordings/<name>.sqlite) or a path to a .sqlite file',
    )
    .option('--config <file>', 'configuration file (default: ./proxy.config.json when present)')
    .option(
      '--mode <mode>',
      'record | replay | auto | diff | passthrough (default: the configured mode)',
    )
    .option(
      '--mocks <files>',
      'mock files (JSON or YAML) whose mcp.<server> entry answers tools/call, comma-separated',
    )
    .option('--session <id>', 'the LLM session these calls belong to (default: $CALLTAPE_SESSION)')
    .option(
      '--report-to <url>',
      'a running calltape proxy that shadow-scores: each tool call is reported to it, for its dashboard and policies (default: $CALLTAPE_REPORT_TO; its admin token from admin.token or $CALLTAPE_ADMIN_TOKEN)',
    )
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

/** auto: replay when the cassette holds recordings of this server, else record (the server is started only then). */
function resolveMode(mode: string, cassette: string, server: string): McpMode {
  if (mode !== 'auto') return mode as McpMode;
  if (!existsSync(cassette)) return 'record';
  const store = new McpStore(cassette, { readonly: true });
  try {
    return store.hasServer(server) ? 'replay' : 'record';
  } finally {
    store.close();
  }
}

async function runMcp(command: string[], flags: McpFlags): Promise<number> {
  const cwd = process.cwd();
  const { config } = loadConfig(
    {
      config: flags.config,
      mode: flags.mode,
      mocks: flags.mocks,
      cassette: flags.cassette === undefined ? undefined : resolveCassette(flags.cassette, cwd),
    },
    process.env,
    cwd,
  );
  const mocks = loadMcpMocks(config.mocks.files, flags.name, cwd);
  const mode = resolveMode(config.mode, config.cassette, flags.name);
  const declared = mocks.tools !== undefined || mocks.mocks.size > 0;
  if (command.length === 0 && mode !== 'replay' && !declared)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `no server command given and no mocks file declares mcp.${flags.name}`,
      `calltape mcp --name ${flags.name} -- <server command…>, or --mocks FILE with an mcp.${flags.name} entry`,
    );
  if (mode === 'replay' && !existsSync(config.cassette) && !declared)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${config.cassette}: no such cassette`,
      missingCassetteHint(
        config.cassette,
        `calltape mcp --name ${flags.name} --mode record -- <server command…>`,
      ),
    );
  if (mode === 'diff' && !existsSync(config.cassette))
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${config.cassette}: no such cassette to diff against`,
      missingCassetteHint(
        config.cassette,
        `calltape mcp --name ${flags.name} --mode record -- <server command…>`,
      ),
    );
  const reader =
    (mode === 'replay' || mode === 'diff') && existsSync(config.cassette)
      ? new McpStore(config.cassette, { readonly: true })
      : undefined;
  const writer = mode === 'record' ? new McpStore(config.cassette, { readonly: false }) : undefined;
  const reporter = callReporter(flags.reportTo ?? process.env['CALLTAPE_REPORT_TO'], config);
  const diffs: McpDiff[] = [];
  const given = flags.session ?? process.env['CALLTAPE_SESSION'];
  const responder = new McpResponder({
    server: flags.name,
    session: given ?? timeOrderedId(),
    sessionGiven: given !== undefined,
    redactor: createRedactor(
      config.redact.headers,
      config.redact.bodyPatterns,
      config.redact.builtinPatterns,
    ),
    mocks,
    reader,
    writer,
    transport: 'stdio',
    ...(reporter
      ? {
          onExchange: (exchange: McpExchange) => {
            if (exchange.method === 'tools/call') reporter.report(reportedCall(exchange));
          },
        }
      : {}),
    ...(mode === 'diff'
      ? { onDiff: (diff: McpDiff) => void (diff.lines.length > 0 && diffs.push(diff)) }
      : {}),
  });
  try {
    const code = await runMcpRelay({
      mode,
      command,
      env: process.env,
      responder,
      input: process.stdin,
      output: process.stdout,
      errors: process.stderr,
    });
    for (const miss of responder.misses) process.stderr.write(`CASSETTE_MISS: ${miss}\n`);
    for (const diff of diffs)
      process.stderr.write(
        `calltape mcp diff: ${diff.request} vs recording ${diff.recordingId ?? '(none)'}:\n  ${diff.lines.join('\n  ')}\n`,
      );
    // Diff mode fails the run when an answer changed, as a replay miss does.
    return code === 0 && diffs.length > 0 ? 1 : code;
  } finally {
    reader?.close();
    writer?.close();
    await reporter?.close(reportGraceMs);
  }
}

/** How long the relay, once its session ended, still tries to report the last calls. */
const reportGraceMs = 2_000;

/** The reporter to the proxy at `url` (`--report-to`, `CALLTAPE_REPORT_TO`), when one is named. */
function callReporter(url: string | undefined, config: Config): McpCallReporter | undefined {
  if (url === undefined || url === '') return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:')
    throw new CalltapeError(
      'CONFIG_INVALID',
      `--report-to (or CALLTAPE_REPORT_TO) ${JSON.stringify(url)}: not the http(s) address of a calltape proxy`,
      'Give the address calltape proxy prints, e.g. --report-to http://127.0.0.1:4545',
    );
  return new McpCallReporter({
    proxyUrl: parsed.href,
    token: config.admin.token ?? undefined,
    log: (message) => process.stderr.write(`${message}\n`),
  });
}
