import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  convertWorkflowTemplate,
  NoOperationTraceWriter,
  parseWorkflow,
} from '@actions/workflow-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { cliPath, runCli } from '../support/cli.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';
import { workflowJob } from '../support/workflow-steps.js';

const templates = join(packageRoot, 'assets/init');
const running: ScriptedUpstream[] = [];
afterAll(() => Promise.all(running.map((upstream) => upstream.close())));

/** Errors GitHub's own workflow schema and parser (the one its editor tooling uses) find. */
async function workflowErrors(name: string, content: string): Promise<string[]> {
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors().map((error) => error.message);
  if (parsed.value === undefined) return errors;
  const template = await convertWorkflowTemplate(parsed.context, parsed.value);
  return [...errors, ...(template.errors ?? []).map((error) => error.Message)];
}

/** Whether this build's `calltape test` takes --repeat (added by another change of issue #31). */
const hasRepeat = runCli(['test', '--help']).stdout.includes('--repeat');

function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.email=ci@example.invalid', '-c', 'user.name=ci', ...args],
    {
      cwd,
      encoding: 'utf8',
    },
  );
}

/** Runs a step's script as GitHub's default shell does (`bash -e`), without blocking the upstream in this process. */
async function runStep(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ status: number | null; stderr: string }> {
  const child = spawn('bash', ['-e', '-c', script], {
    cwd,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { status, stderr };
}

describe('the workflows calltape init writes', () => {
  it('are valid GitHub Actions workflows by GitHub’s published workflow schema', async () => {
    for (const name of ['workflow.yml', 'record-workflow.yml'])
      expect(await workflowErrors(name, readFileSync(join(templates, name), 'utf8'))).toEqual([]);
    // The check is not vacuous: a key the schema does not know is an error.
    const broken = readFileSync(join(templates, 'record-workflow.yml'), 'utf8').replace(
      'runs-on: ubuntu-latest',
      'runs-on: ubuntu-latest\n    run-on: ubuntu-latest',
    );
    expect(await workflowErrors('broken.yml', broken)).toContainEqual(
      expect.stringContaining("Unexpected value 'run-on'"),
    );
  });

  it.skipIf(!hasRepeat)(
    'record workflow: after a prompt change its steps, run as written, record with the key, put the behaviour and cassette diff in the summary and offer the cassette',
    async () => {
      const upstream = await startScriptedUpstream((request) => {
        const body = JSON.parse(request.body) as { messages: { content: string }[] };
        const paris = (body.messages.at(-1)?.content ?? '').includes('Paris');
        return {
          kind: 'json',
          body: chatCompletion(
            paris
              ? {
                  toolCalls: [
                    { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
                  ],
                }
              : { text: 'Hello! How can I help?' },
          ),
        };
      });
      running.push(upstream);
      const work = temporaryFolder();
      const project = join(work, 'project');
      mkdirSync(project);
      expect(runCli(['init', '--dir', project]).status).toBe(0);
      // A checkout of a pull request that edits the system prompt, its base branch as origin/main.
      writeFileSync(join(project, '.gitignore'), 'reports/\n');
      git(project, 'init', '-q', '-b', 'main');
      git(project, 'add', '-A');
      git(project, 'commit', '-q', '-m', 'calltape init');
      git(project, 'update-ref', 'refs/remotes/origin/main', 'HEAD');
      const suite = join(project, 'calltape.yaml');
      writeFileSync(
        suite,
        readFileSync(suite, 'utf8').replace(
          'system: You are a weather assistant. Use the tools to answer.',
          'system: You are a weather assistant. Call a tool before you answer.',
        ),
      );
      git(project, 'commit', '-q', '-am', 'Reword the system prompt');
      // `npx calltape` is this build; every other command is the machine's own.
      const bin = join(work, 'bin');
      mkdirSync(bin);
      writeFileSync(
        join(bin, 'npx'),
        `#!/bin/sh\n[ "$1" = calltape ] || exit 127\nshift\nexec "${process.execPath}" "${cliPath}" "$@"\n`,
      );
      chmodSync(join(bin, 'npx'), 0o755);
      const output = join(work, 'github-output');
      const summary = join(work, 'step-summary.md');
      writeFileSync(output, '');
      writeFileSync(summary, '');
      const job = workflowJob(
        readFileSync(join(project, '.github/workflows/calltape-record.yml'), 'utf8'),
        'record',
      );
      const env: Record<string, string> = {
        ...(process.env as Record<string, string>),
        PATH: `${bin}:${process.env['PATH'] ?? ''}`,
        CALLTAPE_UPSTREAM: upstream.url,
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_RUN_ID: '4242',
        GITHUB_REPOSITORY: 'team/project',
        // The job's expressions, as GitHub evaluates them for this pull request.
        CALLTAPE_RECORD_PATHS: job.env?.['CALLTAPE_RECORD_PATHS'] ?? '',
        CALLTAPE_RECORD_LABEL: 'false',
        BASE_REF: 'main',
      };
      for (const step of job.steps) {
        if (step.run === undefined || step.run === 'npm ci') continue;
        expect(step.run, 'a run script takes its inputs from env, not ${{ }}').not.toContain('${{');
        const stepEnv = Object.fromEntries(
          Object.keys(step.env ?? {}).map((name) => [
            name,
            name.includes('OPENAI') ? 'sk-test-key' : '',
          ]),
        );
        const result = await runStep(step.run, project, { ...env, ...stepEnv });
        expect(result.status, `${step.id ?? step.name ?? step.run}: ${result.stderr}`).toBe(0);
      }
      expect(readFileSync(output, 'utf8')).toBe('record=true\ncassettes=true\n');
      const text = readFileSync(summary, 'utf8');
      // The Markdown report, the command that applies the cassette, and the cassette's diff.
      expect(text).toContain('weather-paris');
      // Compared with the committed recordings, scored (a fresh checkout has no stored runs:
      // regression, the workflow showed no behaviour diff).
      expect(text).toContain('### What changed');
      expect(text).toContain('reports/before.json');
      expect(text).toContain('gh run download 4242 --repo team/project --name calltape-cassettes');
      expect(text).toContain(
        '+        content: You are a weather assistant. Call a tool before you answer.',
      );
      // Recorded with the key from the secret, and the key is nowhere in what CI shows.
      expect(upstream.received.map((request) => request.headers.authorization)).toContain(
        'Bearer sk-test-key',
      );
      expect(text).not.toContain('sk-test-key');
    },
  );
});
