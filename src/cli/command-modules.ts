import type { Command } from 'commander';

type Register = (program: Command) => void;

/** A command module and the top-level commands it registers. */
export interface CommandModule {
  /** Every top-level name (and alias) the module's register function adds. */
  readonly names: readonly string[];
  readonly load: () => Promise<Register>;
}

/** Every command module, in the order `calltape --help` lists them. */
export const commandModules: readonly CommandModule[] = [
  {
    names: ['init'],
    load: async () => (await import('./commands/init-command.js')).registerInitCommand,
  },
  {
    names: ['proxy'],
    load: async () => (await import('./commands/proxy-command.js')).registerProxyCommand,
  },
  {
    names: ['calls'],
    load: async () => (await import('./commands/calls-command.js')).registerCallsCommand,
  },
  {
    names: ['record', 'replay', 'auto', 'diff'],
    load: async () => (await import('./commands/wrap-command.js')).registerWrapCommands,
  },
  {
    names: ['cassettes'],
    load: async () => (await import('./commands/cassettes-command.js')).registerCassettesCommand,
  },
  {
    names: ['test', 'merge-reports', 'score'],
    load: async () => (await import('./commands/test-command.js')).registerTestCommands,
  },
  {
    names: ['runs', 'compare'],
    load: async () => (await import('./commands/runs-command.js')).registerRunCommands,
  },
  {
    names: ['shadow'],
    load: async () => (await import('./commands/shadow-command.js')).registerShadowCommands,
  },
  {
    names: ['mcp'],
    load: async () => (await import('./commands/mcp-command.js')).registerMcpCommand,
  },
  {
    names: ['rate', 'ratings'],
    load: async () => (await import('./commands/rate-command.js')).registerRateCommands,
  },
  {
    names: ['judges'],
    load: async () => (await import('./commands/judges-command.js')).registerJudgesCommands,
  },
  {
    names: ['generate'],
    load: async () => (await import('./commands/generate-command.js')).registerGenerateCommand,
  },
  {
    names: ['review'],
    load: async () => (await import('./commands/review-command.js')).registerReviewCommand,
  },
  {
    names: ['cases'],
    load: async () => (await import('./commands/cases-command.js')).registerCasesCommand,
  },
  {
    names: ['import'],
    load: async () => (await import('./commands/import-command.js')).registerImportCommand,
  },
  {
    names: ['view'],
    load: async () => (await import('./commands/view-command.js')).registerViewCommand,
  },
];

/**
 * Registers the commands `argv` can run: only the named command's module when the first
 * argument that is not an option names one, so `calltape proxy` never loads the scoring, judges
 * and report code of the other commands (it keeps what it loads resident for as long as it runs).
 * `calltape --version` alone registers none: loading every command module was nearly all of its
 * start-up time. Anything else — no command, `help`, a mistyped name — registers them all, for
 * commander's help and suggestions.
 */
export async function registerCommands(program: Command, argv: readonly string[]): Promise<void> {
  const named = argv.slice(2).find((argument) => !argument.startsWith('-'));
  if (named === undefined && asksOnlyVersion(argv)) return;
  const wanted = commandModules.filter(
    (module) => named !== undefined && module.names.includes(named),
  );
  for (const module of wanted.length > 0 ? wanted : commandModules) (await module.load())(program);
}

/** Whether the options are `--version` (or `-V`) without any asking for help. */
function asksOnlyVersion(argv: readonly string[]): boolean {
  const options = argv.slice(2);
  return (
    options.some((option) => option === '--version' || option === '-V') &&
    !options.some((option) => option === '--help' || option === '-h')
  );
}
