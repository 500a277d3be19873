import { spawn } from 'node:child_process';
import type { CaseResult } from '../scoring/case-result.js';
import type { AgentSpec, SuiteCase } from '../scoring/suite-types.js';
import { agentEnvironment } from './agent-environment.js';

const outputLimit = 64 * 1024;

/**
 * Agent mode: runs the user's agent once for a case, with OPENAI_BASE_URL, ANTHROPIC_BASE_URL and
 * the other wires' variables (`agentEnvironment`) pointing at the case's session on the proxy, so every round trip it makes is the case's. The
 * prompt goes in as the last argument, on stdin, or as CALLTAPE_PROMPT. A run past its timeout
 * has its whole process group killed. Output is kept (the first 64 KiB of each stream) for the report.
 */
export async function driveAgent(
  spec: AgentSpec,
  testCase: SuiteCase,
  /** The proxy origin with the case's session prefix: every wire's base URL is set from it (`agentEnvironment`). */
  origin: string,
  extraEnv: { readonly [name: string]: string },
): Promise<NonNullable<CaseResult['agent']>> {
  const prompt = testCase.prompt ?? '';
  const command = spec.input === 'arg' ? `${spec.command} ${shellQuote(prompt)}` : spec.command;
  const child = spawn(command, {
    shell: true,
    cwd: spec.cwd,
    // Its own process group, so a timeout kills the agent and anything it started.
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...extraEnv,
      ...spec.env,
      ...agentEnvironment(origin),
      CALLTAPE_CASE_ID: testCase.test_id,
      ...(spec.input === 'env' ? { CALLTAPE_PROMPT: prompt } : {}),
    },
  });
  const collect = (stream: NodeJS.ReadableStream): (() => string) => {
    let text = '';
    stream.on('data', (chunk: Buffer) => {
      if (text.length < outputLimit) text += chunk.toString('utf8');
    });
    return () =>
      text.length > outputLimit ? `${text.slice(0, outputLimit)}\n[… truncated]` : text;
  };
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  child.stdin.on('error', () => undefined);
  child.stdin.end(spec.input === 'stdin' ? prompt : '');
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }, spec.timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve([127, null]);
      process.stderr.write(
        `calltape test: cannot start the agent (${spec.command}): ${error.message}\n`,
      );
    });
    child.once('close', (exitCode, exitSignal) => {
      clearTimeout(timer);
      resolve([exitCode, exitSignal]);
    });
  });
  return { exit_code: code, signal, timed_out: timedOut, stdout: stdout(), stderr: stderr() };
}

/** One POSIX shell word holding `text` exactly. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
