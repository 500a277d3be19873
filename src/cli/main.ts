#!/usr/bin/env node
import { Command } from 'commander';
import { packageVersion } from '../package-root.js';
import { registerCallsCommand } from './commands/calls-command.js';
import { registerCasesCommand } from './commands/cases-command.js';
import { registerCassettesCommand } from './commands/cassettes-command.js';
import { registerGenerateCommand } from './commands/generate-command.js';
import { registerInitCommand } from './commands/init-command.js';
import { registerMcpCommand } from './commands/mcp-command.js';
import { registerJudgesCommands } from './commands/judges-command.js';
import { registerProxyCommand } from './commands/proxy-command.js';
import { registerRateCommands } from './commands/rate-command.js';
import { registerReviewCommand } from './commands/review-command.js';
import { registerRunCommands } from './commands/runs-command.js';
import { registerShadowCommands } from './commands/shadow-command.js';
import { registerTestCommands } from './commands/test-command.js';
import { registerWrapCommands } from './commands/wrap-command.js';
import { exitCodes } from './exit-codes.js';

const program = new Command()
  .name('calltape')
  .description('Record, replay, mock and score the tool calls your LLM agent makes.')
  .version(packageVersion)
  .option('--debug', 'print stack traces with errors')
  .showHelpAfterError()
  .exitOverride((error) => process.exit(error.exitCode === 0 ? exitCodes.ok : exitCodes.usage));

registerInitCommand(program);
registerProxyCommand(program);
registerCallsCommand(program);
registerWrapCommands(program);
registerCassettesCommand(program);
registerTestCommands(program);
registerRunCommands(program);
registerShadowCommands(program);
registerMcpCommand(program);
registerRateCommands(program);
registerJudgesCommands(program);
registerGenerateCommand(program);
registerReviewCommand(program);
registerCasesCommand(program);

await program.parseAsync(process.argv);
