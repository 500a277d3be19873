import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig, type ConfigFlags } from '../../config/load-config.js';
import { createLogger } from '../../logger.js';
import { startProxy } from '../../proxy/proxy-server.js';
import type { ProxyMode } from '../../config/config.js';
import { createRatingPage, defaultRatingSources } from '../../runner/rating-page.js';
import { combineExtensions } from '../../live/admin-routes.js';
import { createReviewApi } from '../../review/review-api.js';
import { createJudgesApi } from '../../runner/judges-api.js';
import { createViewApp } from '../../view/view-app.js';
import { ratingsFile } from '../../ratings/rating-store.js';
import { resolveCassette } from '../resolve-cassette.js';
import { noteCassetteUse } from '../../runner/cassette-use-store.js';
import { chosenRunsDatabase } from '../../runner/run-store.js';
import { shownDatabase } from '../../database-url.js';
import { codePolicyFromFlags, codePolicyOptions } from '../../user-code/code-policy.js';
import { withWireUpstreamOptions } from '../wire-upstream-options.js';
import { refuseCodeAtStart } from '../refuse-code-at-start.js';
import { otlpSettings, type OtlpFlags } from '../../otel/otlp-settings.js';
import { nearestFile } from '../../nearest-file.js';
import { exitCodes, reportError } from '../exit-codes.js';
import { runsDb } from './runs-command.js';
import { printableUrl } from '../../cassette/printable-url.js';

export function registerProxyCommand(program: Command): void {
  withWireUpstreamOptions(program.command('proxy'))
    .description('start the proxy: point OPENAI_BASE_URL at the printed base URL')
    .option('--config <file>', 'configuration file (default: ./proxy.config.json when present)')
    .option('--host <host>', 'interface to listen on (default 127.0.0.1)')
    .option('--port <port>', 'port to listen on; 0 picks a free port (default 4545)')
    .option(
      '--upstream <url>',
      'provider origin, optionally with a path prefix (default https://api.openai.com)',
    )
    .option(
      '--anthropic-upstream <url>',
      'Anthropic origin for /v1/messages (default https://api.anthropic.com)',
    )
    .option('--mode <mode>', 'record | replay | auto | diff | passthrough')
    .option(
      '--cassette <name>',
      'a name (recordings/<name>.sqlite) or a path (default recordings/calltape.sqlite)',
    )
    .option('--replay-timing <timing>', 'pace of replayed streams: none | exact | scaled:F')
    .option('--log-level <level>', 'silent | error | info | debug')
    .option(
      '--mocks <files>',
      'mock tool files (JSON or YAML), comma-separated: calls to these tools are answered by the proxy',
    )
    .option(
      '--strict-tools',
      'refuse model turns calling a tool that is neither mocked nor in mocks.allowTools',
    )
    .option(
      '--policies <file>',
      'shadow-score every tool call against this policies file (YAML or JSON; reloaded when it changes)',
    )
    .option(
      '--shadow-db <file>',
      'where shadow scores go (default recordings/calltape-shadow.sqlite)',
    )
    .option(
      '--admin-token <token>',
      'token /metrics, the app (/calltape/) and the feed require (prefer CALLTAPE_ADMIN_TOKEN: flags show in ps)',
    )
    .option(
      '--runs-db <file>',
      'where the run is noted for `cassettes prune` (default: calltape-runs.sqlite beside the cassette), and stored runs are read for rating (default recordings/calltape-runs.sqlite)',
    )
    .option(
      '--ratings <file>',
      "the ratings database the app's Rate section writes (default recordings/calltape-ratings.sqlite)",
    )
    .option(
      '--suites <files...>',
      "suite files whose drafts pending review the app's Review section lists, to accept or reject",
    )
    .option(
      '--otlp-endpoint <url>',
      'export every round trip as OpenTelemetry GenAI spans to this OTLP/HTTP collector (default: OTEL_EXPORTER_OTLP_ENDPOINT)',
    )
    .option(
      '--otlp-capture-content',
      'include messages, tool definitions, arguments and results in the spans (redacted; OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true)',
    )
    .option(codePolicyOptions[0].flags, codePolicyOptions[0].description)
    .option(codePolicyOptions[1].flags, codePolicyOptions[1].description)
    .action(
      async (
        flags: ConfigFlags &
          OtlpFlags & {
            readonly runsDb?: string;
            readonly ratings?: string;
            readonly suites?: readonly string[];
            /** commander's --no-code. */
            readonly code?: boolean;
            readonly allowCodeOutsideProject?: boolean;
          },
      ) => {
        const debug = program.opts<{ debug?: boolean }>().debug === true;
        try {
          // Flags that are not configuration fields never reach the config layer (it refuses unknown fields).
          const {
            otlpEndpoint: _otlpEndpoint,
            otlpCaptureContent: _otlpCaptureContent,
            runsDb: _runsDb,
            ratings: _ratings,
            suites: _suites,
            code: _code,
            allowCodeOutsideProject: _outside,
            ...configFlags
          } = flags;
          const code = codePolicyFromFlags(flags);
          // A bare name means recordings/<name>.sqlite, as on every other command.
          const cassette =
            configFlags.cassette === undefined
              ? {}
              : { cassette: resolveCassette(configFlags.cassette, process.cwd()) };
          const { config, file } = loadConfig(
            { ...configFlags, ...cassette },
            process.env,
            process.cwd(),
          );
          const logger = createLogger(config.logLevel);
          const otlp = otlpSettings(flags.otlpEndpoint, flags.otlpCaptureContent, process.env);
          const ratings = {
            ...defaultRatingSources(config.cassette),
            ratingsDb: ratingsFile(flags.ratings, process.cwd()),
            runsDb: runsDb(flags),
          };
          await refuseCodeAtStart(config, code, process.cwd());
          const proxy = await startProxy(config, {
            logger,
            otlp,
            code,
            adminExtension: combineExtensions(
              createRatingPage(ratings),
              createReviewApi(flags.suites ?? [], process.cwd()),
              createJudgesApi(ratings.ratingsDb, process.cwd()),
              createViewApp({ runsDb: ratings.runsDb, cwd: process.cwd() }),
            ),
          });
          // Handlers first: a script may stop the proxy as soon as it reads the banner.
          let signals = 0;
          const stop = (signal: NodeJS.Signals): void => {
            if (++signals > 1) {
              logger.error(`${signal} again: exiting without waiting for in-flight requests`);
              process.exit(exitCodes.infrastructure);
            }
            logger.info(
              `${signal}: finishing ${proxy.inFlight} in-flight request(s), then exiting`,
            );
            proxy.close().then(
              () => {
                noteCassetteUse(chosenRunsDatabase(flags.runsDb), proxy.cassetteUsage());
                process.exit(exitCodes.ok);
              },
              (error: unknown) => process.exit(reportError(error, debug)),
            );
          };
          process.on('SIGTERM', stop).on('SIGINT', stop);
          process.stdout.write(
            `calltape proxy listening on ${proxy.url}\n` +
              `  OPENAI_BASE_URL=${proxy.baseUrl}\n` +
              `  ${modeLine(config.mode, config.upstream, relative(process.cwd(), config.cassette) || config.cassette)}${file ? ` · config ${relative(process.cwd(), file)}` : ''}\n` +
              (config.mocks.files.length > 0 || config.mocks.strictTools
                ? `  mocks ${config.mocks.files.map((path) => relative(process.cwd(), path)).join(', ') || 'none'}${config.mocks.strictTools ? ' · strict tools' : ''}\n`
                : '') +
              (config.shadow.policies
                ? `  shadow scoring: policies ${relative(process.cwd(), config.shadow.policies)} · results ${shownDatabase(config.shadow.database, process.cwd())}\n` +
                  `  stdio MCP relays report their calls with calltape mcp --report-to ${proxy.url} (or CALLTAPE_REPORT_TO=${proxy.url})\n`
                : '') +
              (otlp
                ? `  OpenTelemetry: GenAI spans to ${otlp.url === undefined ? 'OTEL_EXPORTER_OTLP_ENDPOINT' : printableUrl(otlp.url)}${otlp.captureContent ? ' (with content)' : ''}\n`
                : '') +
              (flags.suites && flags.suites.length > 0
                ? `  pending cases in the app's Review section from ${flags.suites.join(', ')}${missingSuites(flags.suites, process.cwd())}\n`
                : '') +
              `  app ${proxy.url}/calltape/app/ (staging #/staging, rate #/rate, review #/review, judges #/judges) · metrics ${proxy.url}/metrics${config.admin.token ? ' (admin token required)' : ''}\n`,
          );
        } catch (error) {
          process.exitCode = reportError(error, debug);
        }
      },
    );
}

/** The banner's account of what this mode does with the upstream and the cassette. */
export function modeLine(mode: ProxyMode, upstreamUrl: string, cassette: string): string {
  const upstream = printableUrl(upstreamUrl);
  switch (mode) {
    case 'passthrough':
      return `upstream ${upstream} · mode passthrough · cassette none (nothing is recorded)`;
    case 'record':
      return `upstream ${upstream} · mode record · cassette ${cassette} (every round trip is recorded)`;
    case 'replay':
      return `upstream none (offline) · mode replay · cassette ${cassette} (read only; a request without a recording gets a 404)`;
    case 'auto':
      return `upstream ${upstream} (only for requests without a recording) · mode auto · cassette ${cassette} (replayed, missing ones recorded)`;
    case 'diff':
      return `upstream ${upstream} · mode diff · cassette ${cassette} (read only; live tool calls compared with it)`;
  }
}

/**
 * What the banner says of suites that are not there yet: the panel reads them when asked (a
 * suite may be generated later), but a mistyped name should not wait for someone to open it.
 */
function missingSuites(suites: readonly string[], cwd: string): string {
  const notes = suites
    .filter((suite) => !existsSync(resolve(cwd, suite)))
    .map((suite) => {
      const near = nearestFile(resolve(cwd, suite), ['.yaml', '.yml', '.json', '.jsonl']);
      return near === undefined ? suite : `${suite} (did you mean ${relative(cwd, near)}?)`;
    });
  return notes.length === 0 ? '' : ` · not found yet: ${notes.join(', ')}`;
}
