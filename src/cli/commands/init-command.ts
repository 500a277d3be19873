import { constants, copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { importCassette } from '../../cassette/sqlite/cassette-files.js';
import { packageRoot } from '../../package-root.js';
import { reportError } from '../exit-codes.js';

const templates = join(packageRoot, 'assets/init');

/** What `calltape init` writes, relative to the project folder, and where each comes from. */
const scaffold: readonly { readonly path: string; readonly write: (target: string) => void }[] = [
  { path: 'calltape.yaml', write: copyFrom('calltape.yaml') },
  {
    path: 'recordings/example.sqlite',
    write: (target) => void importCassette(join(templates, 'example-cassette'), target),
  },
  { path: 'recordings/.gitattributes', write: copyFrom('gitattributes') },
  { path: 'recordings/.gitignore', write: copyFrom('gitignore') },
  { path: '.github/workflows/calltape.yml', write: copyFrom('workflow.yml') },
  { path: '.github/workflows/calltape-record.yml', write: copyFrom('record-workflow.yml') },
];

/**
 * `calltape init`: scaffolds what a team commits — a suite with two example cases and the
 * cassette they replay from, git attributes for the cassette diff and merge drivers, a GitHub
 * Actions workflow running the suite offline, and one re-recording it with the model when a pull
 * request changes prompts, tools or the suite — and never overwrites a file.
 */
export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description(
      'scaffold calltape.yaml, recordings/ and a GitHub Actions workflow in this project (never overwrites a file)',
    )
    .option('--dir <folder>', 'project folder', '.')
    .action((flags: { dir: string }) => {
      try {
        const project = resolve(flags.dir);
        for (const { path, write } of scaffold) {
          const target = join(project, path);
          if (existsSync(target)) {
            process.stdout.write(`  kept    ${path} (exists)\n`);
            continue;
          }
          mkdirSync(dirname(target), { recursive: true });
          write(target);
          process.stdout.write(`  created ${path}\n`);
        }
        const at = relative(process.cwd(), project);
        process.stdout.write(
          `\nNext:\n` +
            `  ${at ? `cd ${at} && ` : ''}npx calltape test calltape.yaml        # the two example cases, replayed offline\n` +
            `  git config diff.calltape.textconv "npx calltape cassettes show"             # cassettes diff as YAML\n` +
            `  git config merge.calltape.driver "npx calltape cassettes merge ./%A ./%B"  # and merge across branches\n` +
            `Then write your own cases in calltape.yaml (point agent.command at your agent) and record them once:\n` +
            `  OPENAI_API_KEY=sk-… npx calltape test calltape.yaml --mode record\n` +
            `To re-record in CI when a pull request changes prompts, tools or the suite, add the repository secret\n` +
            `CALLTAPE_OPENAI_API_KEY (see .github/workflows/calltape-record.yml).\n`,
        );
      } catch (error) {
        process.exitCode = reportError(error, program.opts<{ debug?: boolean }>().debug === true);
      }
    });
}

function copyFrom(template: string): (target: string) => void {
  // COPYFILE_EXCL: a file that appeared since the check is still never overwritten.
  return (target) => copyFileSync(join(templates, template), target, constants.COPYFILE_EXCL);
}
