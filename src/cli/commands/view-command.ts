import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { CalltapeError } from '../../errors.js';
import { isLoopbackHost } from '../../live/admin-auth.js';
import { startViewServer } from '../../view/view-server.js';
import { appAssets } from '../../view/app-assets.js';
import { createViewSections } from '../../view/view-sections.js';
import { ratingsFile } from '../../ratings/rating-store.js';
import { exportRun } from '../../view/export-page.js';
import { ViewRunsReader } from '../../view/view-runs-reader.js';
import { writePrivateFile } from '../../private-files.js';
import { resolve } from 'node:path';
import { exitCodes } from '../exit-codes.js';
import { guardedAction } from '../guarded-action.js';
import { printableDatabase } from '../../database-url.js';
import { runsDb } from './runs-command.js';

interface ViewFlags {
  readonly runsDb?: string;
  readonly host: string;
  readonly port: string;
  readonly open?: boolean;
  readonly adminToken?: string;
  readonly suites?: readonly string[];
  readonly ratings?: string;
  readonly export?: string;
  readonly out?: string;
}

/** `calltape view`: the web app over stored runs, on loopback. */
export function registerViewCommand(program: Command): void {
  program
    .command('view')
    .description(
      'browse stored runs in a local web app (runs, a run, a case, two runs compared; rate, review, judges)',
    )
    .option('--runs-db <file>', 'the runs database (default recordings/calltape-runs.sqlite)')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free port', '4546')
    .option('--open', 'open the app in the default browser')
    .option('--suites <files...>', 'suites whose pending cases the Review section lists')
    .option('--ratings <file>', 'the ratings database (default recordings/calltape-ratings.sqlite)')
    .option(
      '--admin-token <token>',
      'token every request must carry (prefer CALLTAPE_ADMIN_TOKEN: flags show in ps); required off loopback',
    )
    .option(
      '--export <run>',
      'write one stored run as a self-contained HTML file instead of serving',
    )
    .option('--out <file>', 'with --export: the HTML file to write')
    .action(async (flags: ViewFlags) => {
      const code = await guardedAction(program, async () => {
        if (flags.export !== undefined) return exportStoredRun(flags.export, flags);
        const port = Number(flags.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535)
          throw new CalltapeError(
            'CONFIG_INVALID',
            `--port ${flags.port}: a port is a whole number from 0 to 65535`,
          );
        const token = flags.adminToken ?? (process.env['CALLTAPE_ADMIN_TOKEN'] || undefined);
        if (token === undefined && !isLoopbackHost(flags.host))
          throw new CalltapeError(
            'CONFIG_INVALID',
            `--host ${flags.host}: the view would be open to the network; set an admin token (--admin-token or CALLTAPE_ADMIN_TOKEN) or listen on 127.0.0.1`,
          );
        appAssets();
        const cwd = process.cwd();
        const server = await startViewServer({
          runsDb: runsDb(flags),
          cwd,
          sections: createViewSections({
            cwd,
            runsDb: runsDb(flags),
            ratingsDb: ratingsFile(flags.ratings, cwd),
            suites: flags.suites ?? [],
          }),
          host: flags.host,
          port,
          token,
        });
        const stop = (): void => {
          void server.close().then(() => process.exit(exitCodes.ok));
        };
        process.on('SIGTERM', stop).on('SIGINT', stop);
        process.stdout.write(`calltape view on ${server.appUrl}\n`);
        if (flags.open) openBrowser(server.appUrl);
        return exitCodes.ok;
      });
      if (code !== exitCodes.ok) process.exitCode = code;
    });
}

/** `calltape view --export <run> --out FILE`: one stored run as a self-contained HTML file. */
function exportStoredRun(run: string, flags: ViewFlags): number {
  const id = /^#?(\d{1,15})$/.exec(run)?.[1];
  if (id === undefined)
    throw new CalltapeError('CONFIG_INVALID', `--export ${run}: give a run id (calltape runs ls)`);
  if (flags.out === undefined)
    throw new CalltapeError(
      'CONFIG_INVALID',
      '--export needs --out <file>: the HTML file to write',
    );
  const database = runsDb(flags);
  const reader = new ViewRunsReader(database);
  let report;
  try {
    report = reader.report(Number(id));
  } finally {
    reader.close();
  }
  if (report === undefined)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `--export ${run}: no run #${id} in ${printableDatabase(database)}`,
    );
  const exitCode = 0;
  writePrivateFile(
    resolve(flags.out),
    exportRun(report, { id: Number(id), exitCode }, { cwd: process.cwd(), runsDb: database }),
  );
  process.stdout.write(`wrote run #${id} to ${flags.out}\n`);
  return exitCodes.ok;
}

/**
 * Opens an address in the desktop's browser; a machine without one (CI, SSH) just keeps the
 * printed address. The opener gets the address as one argument, never through a shell.
 */
function openBrowser(address: string): void {
  const [command, ...args] =
    process.platform === 'darwin'
      ? ['open']
      : process.platform === 'win32'
        ? ['rundll32', 'url.dll,FileProtocolHandler']
        : ['xdg-open'];
  const child = spawn(command as string, [...args, address], { stdio: 'ignore', detached: true });
  child.on('error', () =>
    process.stderr.write('calltape view: no browser to open; open the address above\n'),
  );
  child.unref();
}
