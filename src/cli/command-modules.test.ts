import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandModules, registerCommands } from './command-modules.js';

const namesOf = (program: Command): string[] =>
  program.commands.flatMap((command) => [command.name(), ...command.aliases()]);

describe('command modules', () => {
  it('name every top-level command their module registers, so `calltape <name>` finds its module', async () => {
    for (const module of commandModules) {
      const program = new Command();
      (await module.load())(program);
      expect(namesOf(program)).toEqual(module.names);
    }
  });

  it('load only the named command, after global options', async () => {
    const program = new Command();
    await registerCommands(program, ['node', 'calltape', '--debug', 'proxy', '--port', '0']);
    expect(namesOf(program)).toEqual(['proxy']);
  });

  it('load no command for `--version` alone, which only prints the version', async () => {
    for (const argv of [['--version'], ['-V'], ['--debug', '--version']]) {
      const program = new Command();
      await registerCommands(program, ['node', 'calltape', ...argv]);
      expect(namesOf(program)).toEqual([]);
    }
  });

  it('load every command for help and for names no module has (commander suggests one)', async () => {
    const all = commandModules.flatMap((module) => module.names);
    for (const argv of [[], ['--help'], ['help', 'proxy'], ['prxy'], ['--version', '--help']]) {
      const program = new Command();
      await registerCommands(program, ['node', 'calltape', ...argv]);
      expect(namesOf(program)).toEqual(all);
    }
  });
});
