import { existsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { CalltapeError } from '../../errors.js';
import { generateCases } from '../../generate/generate-cases.js';
import { createLogger } from '../../logger.js';
import { captureDraftRuns } from '../../review/capture-draft-runs.js';
import { capturedTools, chatTools, type CapturedTools } from '../../generate/captured-tools.js';
import { loadToolBriefs, toolBriefsFrom } from '../../generate/load-tool-briefs.js';
import { loadGuidelines } from '../../guidelines/load-guidelines.js';
import { pct } from '../../report/pct.js';
import { loadSuite } from '../../suites/load-suite.js';
import { openSuiteDocument, saveSuiteDocument } from '../../suites/suite-document.js';
import { exitCodes } from '../exit-codes.js';
import { guardedAction } from '../guarded-action.js';
import { resolveCassette } from '../resolve-cassette.js';
import { shellCommand } from '../../shell-command.js';

interface GenerateFlags {
  readonly guidelines: string;
  readonly tools?: string;
  readonly toolsFrom?: string;
  readonly out: string;
  readonly generatorModel: string;
  readonly provider: string;
  readonly positive: string;
  readonly negative: string;
  readonly breadth: string;
  readonly threshold: string;
  readonly temperature: string;
  readonly agentModel?: string;
  readonly cassette: string;
  readonly mode: string;
  readonly config?: string;
  readonly upstream?: string;
  readonly anthropicUpstream?: string;
  readonly run?: boolean;
}

/** `calltape generate`: draft cases from "when to call / when not" guidelines, recorded like any round trip. */
export function registerGenerateCommand(program: Command): void {
  program
    .command('generate')
    .description(
      'write draft cases (review: pending) from should_use / should_not_use guidelines, asking a generator model through the proxy (recorded; a replay is offline and byte-identical)',
    )
    .requiredOption(
      '--guidelines <file>',
      'the guidelines (YAML/JSON, config/guidelines.schema.json)',
    )
    .option('--tools <file>', 'the tool definitions (an OpenAI tools array, or {tool: schema})')
    .option(
      '--tools-from <cassette[#session]>',
      "instead of --tools: the tools a recorded request offered (any wire; the session's first request with tools, else the cassette's latest)",
    )
    .requiredOption(
      '--out <suite>',
      'the suite to write (.yaml/.json); an existing suite gets the new cases appended',
    )
    .option('--generator-model <model>', 'the model that writes the cases', 'gpt-4o-mini')
    .option('--provider <wire>', 'openai | anthropic: the wire the generator is asked on', 'openai')
    .option('--positive <n>', 'cases per tool where it should be called', '5')
    .option('--negative <n>', 'cases per tool where it should not', '5')
    .option('--breadth <n>', "topics in each tool's topic tree", '3')
    .option(
      '--threshold <ratio>',
      'near-duplicate threshold: Levenshtein ratio of the normalised prompts',
      '0.9',
    )
    .option('--temperature <t>', "the generator's sampling temperature", '0.8')
    .option(
      '--agent-model <model>',
      "a new suite's model (the one `calltape test` asks in direct mode)",
    )
    .option(
      '--cassette <name>',
      'where generator requests are recorded and replayed (a name in recordings/ or a path)',
      'calltape-generate',
    )
    .option(
      '--mode <mode>',
      'replay (default: offline from the cassette) | record | auto',
      'replay',
    )
    .option('--config <file>', 'proxy configuration to start from (upstream, timeouts, redaction)')
    .option('--upstream <url>', 'OpenAI-compatible origin for record and auto')
    .option('--anthropic-upstream <url>', 'Anthropic origin for record and auto')
    .option(
      '--run',
      "run every draft's prompt through the agent under test (as calltape test would, mocks on, in --mode) so the review shows what it did",
    )
    .action(async (flags: GenerateFlags) => {
      process.exitCode = await guardedAction(program, async () => {
        const cwd = process.cwd();
        const mode = flags.mode;
        if (mode !== 'replay' && mode !== 'record' && mode !== 'auto')
          throw new CalltapeError(
            'CONFIG_INVALID',
            `command line: --mode: must be one of ["replay","record","auto"] (got "${mode}")`,
          );
        if (flags.provider !== 'openai' && flags.provider !== 'anthropic')
          throw new CalltapeError(
            'CONFIG_INVALID',
            `command line: --provider: must be one of ["openai","anthropic"] (got "${flags.provider}")`,
          );
        const positive = wholeNumber(flags.positive, '--positive', 0, 200);
        const negative = wholeNumber(flags.negative, '--negative', 0, 200);
        if (positive + negative === 0)
          throw new CalltapeError(
            'CONFIG_INVALID',
            'command line: --positive, --negative: ask for at least one case',
          );
        const breadth = wholeNumber(flags.breadth, '--breadth', 1, 20);
        const threshold = ratio(flags.threshold, '--threshold');
        const temperature = Number(flags.temperature);
        if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2)
          throw new CalltapeError(
            'CONFIG_INVALID',
            `command line: --temperature: must be a number from 0 to 2 (got "${flags.temperature}")`,
          );
        const guidelines = loadGuidelines(flags.guidelines, cwd);
        if ((flags.tools === undefined) === (flags.toolsFrom === undefined))
          throw new CalltapeError(
            'CONFIG_INVALID',
            'command line: give exactly one of --tools <file> and --tools-from <cassette[#session]>',
          );
        const captured =
          flags.toolsFrom === undefined ? undefined : capturedToolsOf(flags.toolsFrom, cwd);
        const tools = captured
          ? toolBriefsFrom(
              captured.tools,
              captured.where,
              guidelines,
              resolve(cwd, flags.guidelines),
            )
          : loadToolBriefs(flags.tools ?? '', guidelines, flags.guidelines, cwd);
        const out = resolve(cwd, flags.out);
        // An existing suite must be sound before anything is asked: its prompts are what new ones are deduplicated against.
        const existing = existsSync(out) ? loadSuite(out, cwd) : undefined;
        if (
          flags.run === true &&
          !existing?.agent &&
          (flags.agentModel ?? existing?.runs[0]?.model) === undefined
        )
          throw new CalltapeError(
            'CONFIG_INVALID',
            "command line: --run: the drafts are run in direct mode, which needs the agent's model: give --agent-model (or --out a suite with model or agent)",
          );
        const { config } = loadConfig(
          {
            config: flags.config,
            upstream: flags.upstream,
            anthropicUpstream: flags.anthropicUpstream,
          },
          process.env,
          cwd,
        );
        const cassette = resolveCassette(flags.cassette, cwd);
        const apiKey =
          (flags.provider === 'anthropic'
            ? process.env['ANTHROPIC_API_KEY']
            : process.env['OPENAI_API_KEY']) ?? 'sk-calltape-replay';
        const suiteFolder = dirname(out);
        const generation = await generateCases(tools, {
          config,
          mode,
          cassette,
          apiKey,
          generator: {
            model: flags.generatorModel,
            provider: flags.provider,
            temperature,
            maxTokens: 4096,
          },
          agent: guidelines.description,
          positive,
          negative,
          breadth,
          threshold,
          existingPrompts: existing
            ? [...existing.cases, ...existing.drafts].flatMap((testCase) =>
                testCase.prompt === undefined ? [] : [testCase.prompt],
              )
            : [],
          origin: {
            generator: flags.generatorModel,
            guidelinesFile: relative(suiteFolder, resolve(cwd, flags.guidelines)),
          },
          recordCommand: `calltape generate … --mode record (with --upstream or OPENAI_BASE_URL set to the real provider)`,
        });
        const suite = openSuiteDocument(out, {
          ...(flags.agentModel ? { model: flags.agentModel } : {}),
          tools: captured
            ? chatTools(captured.tools)
            : relative(suiteFolder, resolve(cwd, flags.tools ?? '')),
        });
        for (const testCase of generation.cases)
          suite.cases.add(suite.document.createNode(testCase));
        saveSuiteDocument(suite);
        const shown = relative(cwd, out) || out;
        const runs =
          flags.run === true
            ? await captureDraftRuns(
                out,
                generation.cases.flatMap((testCase) =>
                  typeof testCase['test_id'] === 'string' ? [testCase['test_id']] : [],
                ),
                {
                  config,
                  mode,
                  cwd,
                  logger: createLogger('error'),
                  ...(process.env['OPENAI_API_KEY']
                    ? { apiKey: process.env['OPENAI_API_KEY'] }
                    : {}),
                },
              )
            : undefined;
        const kept = generation.written - generation.dropped;
        process.stdout.write(
          `${[...generation.topics.values()].reduce((sum, tree) => sum + tree.length, 0)} topic(s) over ${tools.length} tool(s); ${generation.written} prompt(s) written, ${kept} kept (${pct(generation.written === 0 ? 1 : kept / generation.written)}), ${generation.dropped} near-duplicate(s) dropped\n`,
        );
        process.stdout.write(
          `wrote ${generation.cases.length} draft case(s) (review: pending) to ${shown}\n`,
        );
        if (runs) {
          const count = (status: string): number =>
            runs.filter((result) => result.status === status).length;
          const errors = runs.filter((result) => result.status === 'error');
          process.stdout.write(
            `ran ${runs.length} draft(s) through the agent: ${count('pass')} as the guideline expects, ${count('fail')} not, ${errors.length} could not run${errors[0]?.error ? ` (${errors[0].error})` : ''}\n`,
          );
        }
        process.stdout.write(`next: calltape review ${shellCommand([shown])}\n`);
        return exitCodes.ok;
      });
    });
}

/** `--tools-from <cassette>[#<session>]`: the cassette as --cassette names it, and the session after the last `#`. */
function capturedToolsOf(text: string, cwd: string): CapturedTools {
  const hash = text.lastIndexOf('#');
  const name = hash === -1 ? text : text.slice(0, hash);
  const session = hash === -1 ? undefined : text.slice(hash + 1) || undefined;
  return capturedTools(resolve(cwd, resolveCassette(name, cwd)), session);
}

function wholeNumber(text: string, flag: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `command line: ${flag}: must be a whole number from ${min} to ${max} (got "${text}")`,
    );
  return value;
}

function ratio(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || value > 1)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `command line: ${flag}: must be a number above 0 and at most 1 (got "${text}")`,
    );
  return value;
}
