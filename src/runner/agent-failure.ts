import type { CaseResult } from '../scoring/case-result.js';

/**
 * Why an agent run says nothing about the model, or null when it does: an agent that exited
 * non-zero (a crash, a module it cannot find, a command the shell cannot start) or that
 * exited 0 without one round trip through the proxy. Either is an error, never a fail scored
 * on the calls made before it stopped: a crashed negative case would otherwise pass for free.
 */
export function agentFailure(
  agent: NonNullable<CaseResult['agent']>,
  roundTrips: number,
): string | null {
  if (agent.exit_code !== 0)
    return `the agent exited with ${agent.exit_code ?? agent.signal ?? 'an error'}${agent.stderr ? `: ${lastLine(agent.stderr)}` : ''}`;
  if (roundTrips === 0)
    return 'the agent exited 0 without reaching the model: no round trip came through calltape (does it read OPENAI_BASE_URL / ANTHROPIC_BASE_URL?)';
  return null;
}

/** The line of an agent's stderr that says what went wrong: the first error line, else the last line. */
export function lastLine(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return (
    lines.find((line) => /^[A-Z]\w*Error\b|\bError: /.test(line)) ??
    lines.at(-1) ??
    ''
  ).slice(0, 300);
}
