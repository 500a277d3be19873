import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../support/cli.js';
import { connectMcpClient, viaCalltape } from '../support/mcp-client.js';
import { wipeModel, wipeThenAdd } from '../support/notes-agent.js';
import { startScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

/** The LLM side of `wipeThenAdd` with no dependencies, for `calltape test` to replay (the MCP side is the recording's). */
const replayAgent = `
const base = process.env.OPENAI_BASE_URL;
const tools = [{ type: 'function', function: { name: 'notes__delete_everything', parameters: { type: 'object' } } }];
const messages = [{ role: 'user', content: 'wipe my notes' }];
const ask = () => fetch(base + '/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + process.env.OPENAI_API_KEY }, body: JSON.stringify({ model: 'gpt-test', messages, tools }) }).then((response) => response.json());
ask().then((first) => {
  const asked = first.choices[0].message;
  messages.push(asked, { role: 'tool', tool_call_id: asked.tool_calls[0].id, content: 'permission denied' });
  return ask();
}).then((last) => console.log(last.choices[0].message.content));
`;

interface Report {
  readonly cases: readonly {
    readonly test_id: string;
    readonly status: string;
    readonly problems: readonly string[];
    readonly trajectory: {
      readonly checks: readonly {
        readonly check: string;
        readonly status: string;
        readonly reasons: readonly string[];
        readonly details: Record<string, unknown>;
      }[];
    };
  }[];
}

const stepProblem =
  'steps: 4 tool call(s) (including 3 MCP call(s) no model call asked for), at most 3 allowed';

describe('offline step budgets count the MCP calls no model call asked for', () => {
  const folder = temporaryFolder();
  const cassette = join(folder, 'loop.sqlite');
  const suite = join(folder, 'suite.json');

  beforeAll(async () => {
    // Record: the model asks for one tool; the agent then calls `add` three times on its own.
    const upstream = await startScriptedUpstream(wipeModel);
    const proxy = await startTestProxy(upstream.url, { mode: 'record', cassette });
    const mcp = await connectMcpClient(
      viaCalltape(['--name', 'notes', '--cassette', cassette, '--session', 'loop']),
      { CALLTAPE_MODE: 'record', MCP_TEST_SIDE_EFFECTS: join(folder, 'effects.txt') },
    );
    const client = new OpenAI({ baseURL: proxy.baseUrl, apiKey: 'sk-test', maxRetries: 0 });
    await wipeThenAdd(client, mcp.client, { 'x-calltape-session': 'loop' }, async () => {
      for (let n = 0; n < 2; n++)
        await mcp.client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    });
    await mcp.close();
    await proxy.close();
    await upstream.close();
    writeFileSync(join(folder, 'agent.cjs'), replayAgent);
    writeFileSync(
      suite,
      JSON.stringify({
        cassette: 'loop.sqlite',
        agent: { command: `node ${join(folder, 'agent.cjs')}` },
        cases: [
          {
            test_id: 'loop',
            prompt: 'wipe my notes',
            // The model made one call: only the agent's own MCP calls break the budget.
            expect: {
              calls: ['notes__delete_everything'],
              max_steps: 3,
              max_calls_per_tool: { add: 2 },
            },
          },
        ],
      }),
    );
  });

  function expectLoopFails(report: Report): void {
    const [loop] = report.cases;
    expect(loop?.status).toBe('fail');
    expect(loop?.problems[0]).toBe(stepProblem);
    expect(
      loop?.trajectory.checks.map((check) => [check.check, check.status, check.reasons]),
    ).toEqual([
      ['calls', 'pass', []],
      ['steps', 'fail', ['too_many_steps', 'tool_limit_exceeded']],
    ]);
    expect(loop?.trajectory.checks[1]?.details).toMatchObject({
      calls: 4,
      rounds: 2,
      by_tool: { notes__delete_everything: 1, add: 3 },
      unasked_mcp_calls: 3,
    });
  }

  it('calltape score fails the case on the recorded calls, and says they are in the count', async () => {
    const out = join(folder, 'score.json');
    const result = await runCliAsync([
      'score',
      '--suite',
      suite,
      '--cassette',
      cassette,
      '--json',
      out,
    ]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(stepProblem);
    expectLoopFails(JSON.parse(readFileSync(out, 'utf8')) as Report);
  });

  it('regression: a calltape test replay reads the MCP server’s verdict on the model’s call (a replayed round trip has the clock of the replay, the recorded MCP call that of the recording)', async () => {
    const statusSuite = join(folder, 'status-suite.json');
    const parsed = JSON.parse(readFileSync(suite, 'utf8')) as { cases: object[] };
    writeFileSync(
      statusSuite,
      JSON.stringify({
        ...parsed,
        cases: [
          { test_id: 'loop', prompt: 'wipe my notes', expect: { must_succeed: ['notes__*'] } },
        ],
      }),
    );
    const out = join(folder, 'status.json');
    const result = await runCliAsync(['test', statusSuite, '--mode', 'replay', '--json', out]);
    expect(result.status).toBe(1);
    const [loop] = (JSON.parse(readFileSync(out, 'utf8')) as Report).cases;
    expect(loop?.trajectory.checks.map((check) => [check.check, check.reasons])).toEqual([
      ['status', ['tool_failed']],
    ]);
  });

  it('calltape test fails the replayed run the same way', async () => {
    const out = join(folder, 'test.json');
    const result = await runCliAsync(['test', suite, '--mode', 'replay', '--json', out]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(stepProblem);
    expectLoopFails(JSON.parse(readFileSync(out, 'utf8')) as Report);
  });
});
