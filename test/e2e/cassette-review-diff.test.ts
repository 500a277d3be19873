import { describe, expect, it } from 'vitest';
import { cliPath, runCliAsync } from '../support/cli.js';
import { changedLines, rerecordScenario, scenarioCases } from '../support/rerecord-scenario.js';
import { temporaryFolder } from '../support/test-proxy.js';

const newSystem = 'You are a weather assistant. Always call a tool before you answer.';

/** The session of each review document, in text order. */
function sessionsOf(text: string): string[] {
  return [...text.matchAll(/^session_id: (.+)$/gm)].map((match) => match[1] ?? '');
}

describe('the cassette text git diff shows (issue #31: 820 changed lines after one prompt change)', () => {
  it('orders sessions by case id whatever order they were recorded in; recording the same answers again diffs empty', async () => {
    const folder = temporaryFolder();
    const outcome = await rerecordScenario({ folder, cli: cliPath, run: runCliAsync });
    // The second recording really was in another order, and every case was recorded again.
    expect(outcome.answerOrders).toEqual([[...scenarioCases], [...scenarioCases].reverse()]);
    expect(sessionsOf(outcome.before)).toEqual([...scenarioCases]);
    // New row ids, times, completion and call ids, request ids and rate limits: none shows.
    expect(outcome.diff).toBe('');
    expect(outcome.after).toBe(outcome.before);
    // --all shows every column, what the review text leaves out included, in the same order.
    const all = await runCliAsync(['cassettes', 'show', '--all', 'recordings/weather.sqlite'], {
      cwd: folder,
    });
    for (const column of ['started_at:', 'total_ms:', 'request_key:', 'x-request-id:'])
      expect(all.stdout).toContain(column);
    expect(sessionsOf(all.stdout)).toEqual([...scenarioCases]);
  });

  it('after a system-prompt change shows the changed prompt lines and the one changed answer, in the case’s place', async () => {
    const outcome = await rerecordScenario({
      folder: temporaryFolder(),
      cli: cliPath,
      run: runCliAsync,
      changedCase: 'charlie',
      secondSystem: newSystem,
    });
    expect(sessionsOf(outcome.after)).toEqual([...scenarioCases]);
    const lines = changedLines(outcome.diff);
    const prompt = lines.filter((line) => /^[+-] +content: You are a weather assistant/.test(line));
    expect(prompt).toHaveLength(2 * scenarioCases.length);
    // The rest is charlie's answer: Lima in fahrenheit now, in the response and its tool call.
    const answer = lines.filter((line) => !prompt.includes(line));
    expect(answer.length).toBeGreaterThan(0);
    for (const line of answer) expect(line).toMatch(/celsius|fahrenheit/);
    expect(answer.filter((line) => line.startsWith('+')).join('\n')).toContain('Lima');
    // charlie's block stays third: each case's block is replaced where it was.
    const blocks = (text: string): string[] => text.split(/^---$/m).filter(Boolean);
    expect(blocks(outcome.after)[2]).toContain('fahrenheit');
    expect(blocks(outcome.before)[2]).toContain('session_id: charlie');
    expect(outcome.changedLineCount).toBe(lines.length);
  });
});
