import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** The most of each output stream of an agent kept for the report. */
export const agentOutputLimit = 64 * 1024;

/** An agent's process, started by a shell in its own process group. */
export interface AgentProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Kills the agent and everything it started (its whole process group); safe to call again. */
  kill(): void;
  /**
   * Resolves once the agent has exited and its output streams have closed, with its exit code
   * and signal; 127 when the shell itself could not start.
   */
  readonly closed: Promise<readonly [number | null, NodeJS.Signals | null]>;
}

/**
 * Starts an agent command with a shell, in `cwd`, with exactly `env`. It gets its own process
 * group (`detached`), so a timeout can kill the agent and anything it started.
 */
export function spawnAgentProcess(
  command: string,
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv },
): AgentProcess {
  const child = spawn(command, {
    shell: true,
    cwd: options.cwd,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: options.env,
  });
  child.stdin.on('error', () => undefined);
  const closed = new Promise<readonly [number | null, NodeJS.Signals | null]>((resolve) => {
    child.once('error', (error) => {
      resolve([127, null]);
      process.stderr.write(
        `calltape test: cannot start the agent (${command}): ${error.message}\n`,
      );
    });
    child.once('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
  });
  return {
    child,
    closed,
    kill: () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    },
  };
}

/** Text an agent printed, of which the first `limit` characters are kept (then a truncation mark). */
export function boundedOutput(limit = agentOutputLimit): {
  append(text: string): void;
  text(): string;
} {
  let kept = '';
  return {
    append: (text) => {
      if (kept.length < limit) kept += text;
    },
    text: () => (kept.length > limit ? `${kept.slice(0, limit)}\n[… truncated]` : kept),
  };
}
