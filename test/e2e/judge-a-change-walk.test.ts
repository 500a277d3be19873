import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { parse, stringify } from 'yaml';
import { packageRoot } from '../../src/package-root.js';
import { runCliAsync } from '../support/cli.js';
import { lookupThenActModel } from '../support/lookup-then-act-model.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import {
  startScriptedUpstream,
  type Script,
  type ScriptedUpstream,
} from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

/**
 * Issue 31's walk, end to end: the README's case passes on a lookup-then-act agent; a system
 * prompt edit makes every case a replay miss, said once with the command that records them; the
 * change recorded in auto mode with --repeat 3 against a model that now refunds the wrong order
 * for one case prints that one case's tool-call change and flips the gate.
 */
const agentScript = join(packageRoot, 'dist/test/support/lookup-then-act-agent.js');
const key = { OPENAI_API_KEY: 'sk-test-key-0123456789abcdef' };
const newPrompt = 'You are the refunds desk. Be brief.';

/** Under the new system prompt the model refunds order B-42 as B-24; everything else stays. */
const changedModel: Script = (request, call) => {
  const body = JSON.parse(request.body || '{}') as {
    messages?: { role: string; content?: string; tool_calls?: unknown }[];
  };
  const system = body.messages?.[0]?.role === 'system';
  const user = body.messages?.find((message) => message.role === 'user')?.content ?? '';
  const step = body.messages?.filter((message) => message.role === 'tool').length ?? 0;
  if (system && user.includes('B-42') && step === 1)
    return {
      kind: 'json',
      body: chatCompletion({
        toolCalls: [
          { id: 'call_1', name: 'issue_refund', arguments: '{"order_id":"B-24","reason":"late"}' },
        ],
      }),
    };
  return lookupThenActModel(request, call);
};

let upstream: ScriptedUpstream;
beforeAll(async () => {
  upstream = await startScriptedUpstream(changedModel);
});
afterAll(() => upstream.close());

/** The README's step-4 suite, verbatim, plus a second refund case, pointed at the agent. */
function writeSuite(folder: string, system?: string): string {
  const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
  const block = /```yaml\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('**4. Test**')))?.[1];
  const suite = parse(block ?? '') as { cases: object[] };
  const file = join(folder, 'calltape.yaml');
  writeFileSync(
    file,
    stringify({
      ...suite,
      cases: [
        ...suite.cases,
        {
          test_id: 'refund-late',
          prompt: 'Refund order B-42, it came late',
          expected_tool: 'issue_refund',
          arguments: { order_id: 'B-42' },
        },
      ],
      cassette: 'recordings/agent.sqlite',
      agent: {
        command: `node ${agentScript}`,
        env: { LOOKUP_AGENT_TOOLS: 'orders', ...(system ? { LOOKUP_AGENT_SYSTEM: system } : {}) },
      },
    }),
  );
  return file;
}

describe('issue 31: a prompt change, judged (the walk)', () => {
  it('passes the README case, says a prompt edit once, and in auto mode with --repeat 3 prints the one changed call and flips the gate', async () => {
    const folder = temporaryFolder();
    const suite = writeSuite(folder);
    const recorded = await runCliAsync(
      ['test', suite, '--mode', 'record', '--upstream', upstream.url],
      { env: key, cwd: folder },
    );
    expect(recorded.status, recorded.stdout + recorded.stderr).toBe(0);

    // The system prompt is edited: offline, every case misses, and that is said once.
    writeSuite(folder, newPrompt);
    const missed = await runCliAsync(['test', suite], { cwd: folder, env: { OPENAI_API_KEY: '' } });
    const output = missed.stdout + missed.stderr;
    expect(missed.status).not.toBe(0);
    expect(output).toContain('2 cases missed: their requests changed at messages[0]');
    expect(output.split('2 cases missed').length).toBe(2);

    // Judged with the model, three samples each, against the run that last recorded the cassette.
    const report = join(folder, 'report.json');
    const judged = await runCliAsync(
      [
        'test',
        suite,
        '--mode',
        'auto',
        '--repeat',
        '3',
        '--upstream',
        upstream.url,
        '--json',
        report,
      ],
      { env: key, cwd: folder },
    );
    expect(judged.status).toBe(1);
    const result = JSON.parse(readFileSync(report, 'utf8')) as {
      cases: { test_id: string; status: string; samples?: { passed: number; total: number } }[];
      baseline?: {
        diff: {
          cases: {
            test_id: string;
            verdict: { before: string; after: string } | null;
            arguments: { path: string; before: unknown; after: unknown }[];
          }[];
        };
      };
    };
    expect(result.cases.map((item) => [item.test_id, item.status, item.samples])).toEqual([
      ['refund-order', 'pass', expect.objectContaining({ passed: 3, total: 3 })],
      ['refund-late', 'fail', expect.objectContaining({ passed: 0, total: 3 })],
    ]);
    // Only the changed case is in the diff, with its argument old → new.
    expect(result.baseline?.diff.cases.map((item) => item.test_id)).toEqual(['refund-late']);
    expect(result.baseline?.diff.cases[0]).toMatchObject({
      verdict: { before: 'pass', after: 'fail' },
    });
    expect(JSON.stringify(result.baseline?.diff.cases[0]?.arguments)).toContain('B-24');
    expect(judged.stdout).toContain('refund-late');
    expect(judged.stdout).toMatch(/B-42.*B-24/);
    // The re-recorded cases replaced their blocks: no request of the old prompt is left to review
    // (or to prune), and auto did not append 2 cases × 3 rounds of stale recordings.
    const cassette = new Database(join(folder, 'recordings/agent.sqlite'), { readonly: true });
    try {
      const bodies = cassette
        .prepare('SELECT request_body FROM interactions')
        .pluck()
        .all() as Buffer[];
      expect(bodies.length).toBe(2 * 3 * 3);
      expect(bodies.filter((body) => !body.toString('utf8').includes(newPrompt))).toEqual([]);
    } finally {
      cassette.close();
    }
  }, 180_000);
});
