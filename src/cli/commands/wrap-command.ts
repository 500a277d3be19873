import { spawn } from 'node:child_process';
import { relative } from 'node:path';
import type { Command } from 'commander';
import { loadConfig, type ConfigFlags } from '../../config/load-config.js';
import type { ProxyMode } from '../../config/config.js';
import { CalltapeError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { startProxy, type RunningProxy } from '../../proxy/proxy-server.js';
import { exitCodes, reportError } from '../exit-codes.js';
import { resolveCassette } from '../resolve-cassette.js';
import { withRecordHint } from '../../runner/record-hint.js';
import { shellCommand } from '../../shell-command.js';
import { noteCassetteUse } from '../../runner/cassette-use-store.js';
import { placeholderKeyEnv } from '../../proxy/placeholder-key.js';
import { chosenRunsDatabase } from '../../runner/run-store.js';
import { withWireUpstreamOptions } from '../wire-upstream-options.js';
import { codePolicyFromFlags, codePolicyOptions } from '../../user-code/code-policy.js';
import { refuseCodeAtStart } from '../refuse-code-at-start.js';

interface WrapFlags extends ConfigFlags {
  readonly cassette?: string;
  readonly runsDb?: string;
  /** commander's --no-code. */
  readonly code?: boolean;
  readonly allowCodeOutsideProject?: boolean;
}

/**
 * `calltape record|replay|auto --cassette NAME -- <command…>`: a proxy on a free port for the
 * length of one command, which finds it through OPENAI_BASE_URL / ANTHROPIC_BASE_URL.
 */
export function registerWrapCommands(program: Command): void {
  const modes: [Exclude<ProxyMode, 'passthrough'>, string][] = [
    ['record', 'run a command with every LLM call forwarded and recorded into the cassette'],
    [
      'replay',
      'run a command offline, every LLM call answered from the cassette; exits 1 on a miss',
    ],
    ['auto', 'run a command replaying recorded calls and recording the rest'],
    [
      'diff',
      'run a command against the live upstream and report where its tool calls differ from the cassette; exits 1 when any differ',
    ],
  ];
  for (const [mode, description] of modes) {
    const command = program.command(mode);
    for (const option of codePolicyOptions) command.option(option.flags, option.description);
    withWireUpstreamOptions(command);
    command
      .description(description)
      .argument('<command...>', 'the command to run, after --')
      .requiredOption(
        '--cassette <name>',
        'cassette: a name (recordings/<name>.sqlite) or a path to a .sqlite file',
      )
      .option('--config <file>', 'configuration file (default: ./proxy.config.json when present)')
      .option('--upstream <url>', 'provider origin (record and auto)')
      .option('--anthropic-upstream <url>', 'Anthropic origin (record and auto)')
      .option('--replay-timing <timing>', 'none | exact | scaled:F')
      .option('--log-level <level>', 'silent | error | info | debug')
      .option('--mocks <files>', 'mock tool files (JSON or YAML), comma-separated')
      .option(
        '--strict-tools',
        'refuse model turns calling a tool that is neither mocked nor allowed',
      )
      .option(
        '--runs-db <file>',
        'where the run is noted for `cassettes prune` (default: calltape-runs.sqlite beside the cassette)',
      )
      .action(async (command: string[], flags: WrapFlags) => {
        const debug = program.opts<{ debug?: boolean }>().debug === true;
        try {
          process.exitCode = await runWrapped(mode, command, flags);
        } catch (error) {
          process.exitCode = reportError(error, debug);
        }
      });
  }
}

async function runWrapped(
  mode: Exclude<ProxyMode, 'passthrough'>,
  command: string[],
  flags: WrapFlags,
): Promise<number> {
  const cwd = process.cwd();
  // Not configuration fields: the config layer refuses unknown fields.
  const { code: _code, allowCodeOutsideProject: _outside, ...configFlags } = flags;
  const codePolicy = codePolicyFromFlags(flags);
  const { config } = loadConfig(
    {
      ...configFlags,
      mode,
      port: '0',
      host: '127.0.0.1',
      cassette: resolveCassette(flags.cassette ?? '', cwd),
    },
    process.env,
    cwd,
  );
  const logger = createLogger(config.logLevel === 'info' ? 'error' : config.logLevel);
  const [file, ...args] = command;
  if (!file)
    throw new CalltapeError(
      'CONFIG_INVALID',
      'no command given: calltape ' + mode + ' --cassette NAME -- <command...>',
    );
  const again = shellCommand(['--cassette', flags.cassette ?? '', '--', ...command]);
  const recordWith = `calltape record ${again} (or calltape auto ${again} to keep what is recorded)`;
  await refuseCodeAtStart(config, codePolicy, cwd);
  const proxy = await startProxy(config, {
    logger,
    recordCommand: recordWith,
    code: codePolicy,
  });
  // SDKs refuse to start without a key even when the cassette answers; a placeholder never
  // leaves this machine (a request that must go upstream with it is refused, naming the key to set).
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(mode === 'replay' || mode === 'auto' ? placeholderKeyEnv(process.env) : {}),
    OPENAI_BASE_URL: proxy.baseUrl,
    ANTHROPIC_BASE_URL: proxy.url,
  };
  const child = spawn(file, args, { stdio: 'inherit', env });
  const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
  process.on('SIGINT', forward).on('SIGTERM', forward);
  const code = await new Promise<number>((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`calltape ${mode}: cannot run ${file}: ${error.message}\n`);
      resolve(127);
    });
    child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
  });
  process.off('SIGINT', forward).off('SIGTERM', forward);
  const unused = proxy.unusedRecordings().length;
  await proxy.close();
  noteCassetteUse(
    chosenRunsDatabase(flags.runsDb),
    proxy.cassetteUsage().map((usage) => ({ ...usage, errors: code === 0 ? 0 : 1 })),
  );
  printSummary(mode, proxy, unused, relative(cwd, config.cassette) || config.cassette, recordWith);
  if (code !== 0) return code;
  if (mode === 'diff') return proxy.stats.diffs.length > 0 ? exitCodes.failed : exitCodes.ok;
  // A refused tool call is a test failure even when the agent swallowed the error.
  if (proxy.stats.refused > 0) return exitCodes.failed;
  return mode === 'replay' && proxy.stats.misses > 0 ? exitCodes.failed : exitCodes.ok;
}

function printSummary(
  mode: string,
  proxy: RunningProxy,
  unused: number,
  cassette: string,
  recordWith: string,
): void {
  const { hits, misses, recorded, unanswered, expired, missReasons, diffs, compared } = proxy.stats;
  // A recording of calltape's own 502 is no answer: say so, or "6 recorded" reads as success.
  const recordedText = `${recorded} recorded${unanswered > 0 ? ` (${unanswered} of them no answer but calltape's own error, such as an unreachable upstream: see the errors above)` : ''}`;
  if (mode === 'diff') {
    const unmatched = diffs.filter((diff) => diff.recordingId === undefined).length;
    process.stderr.write(
      `calltape diff: ${compared} compared with their recording, ${diffs.length - unmatched} differ, ${unmatched} without a recording · cassette ${cassette}\n`,
    );
    for (const diff of diffs)
      process.stderr.write(
        `  ${diff.request}${diff.recordingId ? ` (recording ${diff.recordingId})` : ''}:\n    ${diff.lines.join('\n    ')}\n`,
      );
    return;
  }
  const parts =
    mode === 'record'
      ? [recordedText]
      : [
          `${hits} replayed`,
          `${misses} missed`,
          ...(mode === 'auto' ? [recordedText] : []),
          `${unused} unused recording(s)`,
          ...(expired > 0 ? [`${expired} past expiry.maxAge`] : []),
        ];
  if (proxy.stats.refused > 0)
    parts.push(`${proxy.stats.refused} turn(s) refused under mocks.strictTools`);
  process.stderr.write(`calltape ${mode}: ${parts.join(', ')} · cassette ${cassette}\n`);
  for (const reason of missReasons)
    process.stderr.write(
      `  miss: ${withRecordHint(reason, recordWith).replace(/\n/g, '\n        ')}\n`,
    );
}
