#!/usr/bin/env node
import { Command } from 'commander';
import { packageVersion } from '../package-root.js';
import { registerCommands } from './command-modules.js';
import { exitCodes } from './exit-codes.js';

const program = new Command()
  .name('calltape')
  .description('Record, replay, mock and score the tool calls your LLM agent makes.')
  .version(packageVersion)
  .option('--debug', 'print stack traces with errors')
  .showHelpAfterError()
  .exitOverride((error) => process.exit(error.exitCode === 0 ? exitCodes.ok : exitCodes.usage));

await registerCommands(program, process.argv);
await program.parseAsync(process.argv);
