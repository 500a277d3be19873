import type { CaseResult } from '../scoring/case-result.js';
import type { ProcessAgentSpec, SuiteCase } from '../scoring/suite-types.js';
import { boundedOutput, spawnAgentProcess } from './agent-process.js';
import { agentEnvironment as wireEnvironment } from './agent-environment.js';

/**
 * Agent mode: runs the user's agent once for a case, with OPENAI_BASE_URL, ANTHROPIC_BASE_URL and
 * the other wires' variables (`agentEnvironment`) pointing at the case's session on the proxy, so every round trip it makes is the case's. The
 * prompt goes in as the last argument, on stdin, or as CALLTAPE_PROMPT. A run past its timeout
 * has its whole process group killed. Output is kept (the first 64 KiB of each stream) for the report.
 */
export async function driveAgent(
  spec: ProcessAgentSpec,
  testCase: SuiteCase,
  urls: { readonly openai: string; readonly anthropic: string },
  extraEnv: { readonly [name: string]: string },
): Promise<NonNullable<CaseResult['agent']>> {
  const prompt = testCase.prompt ?? '';
  const command = spec.input === 'arg' ? `${spec.command} ${shellQuote(prompt)}` : spec.command;
  const agent = spawnAgentProcess(command, {
    cwd: spec.cwd,
    env: {
      ...agentEnvironment(spec, testCase, urls, extraEnv),
      ...(spec.input === 'env' ? { CALLTAPE_PROMPT: prompt } : {}),
    },
  });
  const stdout = boundedOutput();
  const stderr = boundedOutput();
  agent.child.stdout.on('data', (chunk: Buffer) => stdout.append(chunk.toString('utf8')));
  agent.child.stderr.on('data', (chunk: Buffer) => stderr.append(chunk.toString('utf8')));
  agent.child.stdin.end(spec.input === 'stdin' ? prompt : '');
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    agent.kill();
  }, spec.timeoutMs);
  const [code, signal] = await agent.closed;
  clearTimeout(timer);
  return {
    exit_code: code,
    signal,
    timed_out: timedOut,
    stdout: stdout.text(),
    stderr: stderr.text(),
  };
}

/**
 * The environment an agent process runs in: calltape's own, the run's (API key, model, run
 * name), the suite's `agent.env`, then the base URLs of the case's session and its id, which
 * nothing overrides.
 */
export function agentEnvironment(
  spec: { readonly env: { readonly [name: string]: string } },
  testCase: SuiteCase,
  urls: { readonly openai: string; readonly anthropic: string },
  extraEnv: { readonly [name: string]: string },
): NodeJS.ProcessEnv {
  return { ...process.env, ...caseEnvironment(spec, testCase, urls, extraEnv) };
}

/** The variables a case gives its agent over calltape's own environment (an agent module gets these as `env`). */
export function caseEnvironment(
  spec: { readonly env: { readonly [name: string]: string } },
  testCase: SuiteCase,
  urls: { readonly openai: string; readonly anthropic: string },
  extraEnv: { readonly [name: string]: string },
): { readonly [name: string]: string } {
  return {
    ...extraEnv,
    ...spec.env,
    // Every wire's base URL variable, from the session's origin (ANTHROPIC_BASE_URL is that origin).
    ...wireEnvironment(urls.anthropic),
    OPENAI_BASE_URL: urls.openai,
    CALLTAPE_CASE_ID: testCase.test_id,
  };
}

/** One POSIX shell word holding `text` exactly. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
