import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { packageRoot } from '../../src/package-root.js';
import { runCliAsync } from '../support/cli.js';
import { refundConversationModel } from '../support/refund-conversation-model.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

/** The example agents (examples/conversation/), compiled or as written. */
const typescriptAgent = `node ${join(packageRoot, 'dist/examples/conversation/refund-agent.js')}`;
const pythonAgent = `python3 ${join(packageRoot, 'examples/conversation/refund_agent.py')}`;
const misbehavingAgent = `node ${join(packageRoot, 'dist/test/support/misbehaving-conversation-agent.js')}`;
const key = 'sk-test-key-0123456789abcdef';
// Each test runs the CLI twice (record, then replay), each starting agents on a 2-core box.
const twoRuns = 120_000;

interface TurnReport {
  turn: number;
  user: string;
  reply: string | null;
  status: string;
  problems: string[];
  calls: { name: string; arguments: unknown }[];
}
interface Report {
  cases: {
    test_id: string;
    status: string;
    problems: string[];
    agent: { exit_code: number | null; stdout: string } | null;
    conversation?: { turns: TurnReport[]; ended_by: string; ended_reason: string | null };
  }[];
}

let upstream: ScriptedUpstream;
beforeAll(async () => {
  upstream = await startScriptedUpstream(refundConversationModel);
});
afterAll(() => upstream.close());

const servers: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.kill('SIGKILL');
});

/** Starts an example agent's HTTP server on a port the OS chooses; resolves with its url. */
async function serveAgent(command: string): Promise<string> {
  const [program = '', ...args] = command.split(' ');
  const server = spawn(program, [...args, '--serve', '0'], {
    env: { ...process.env, OPENAI_API_KEY: key },
  });
  servers.push(server);
  let printed = '';
  return new Promise((resolve, reject) => {
    server.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const url = /listening on (\S+)/.exec(printed)?.[1];
      if (url) resolve(url);
    });
    server.once('exit', (code) => reject(new Error(`${command} --serve exited with ${code}`)));
  });
}

/** The example suite (examples/conversation/suite.yaml), read to be written elsewhere: its mocks by absolute path. */
function exampleSuite(): { cases: { turns: Record<string, unknown>[] }[] } & Record<
  string,
  unknown
> {
  const folder = join(packageRoot, 'examples/conversation');
  const suite = parse(readFileSync(join(folder, 'suite.yaml'), 'utf8')) as ReturnType<
    typeof exampleSuite
  > & { mocks: string[] };
  return { ...suite, mocks: suite.mocks.map((file) => join(folder, file)) };
}

async function runSuite(
  folder: string,
  suite: object,
  mode: 'record' | 'replay',
): Promise<{ status: number | null; output: string; report: Report }> {
  const file = join(folder, 'suite.yaml');
  writeFileSync(file, stringify(suite));
  const report = join(folder, `${mode}.json`);
  const result = await runCliAsync(
    // Replay goes nowhere: an upstream on port 9 refuses, so a round not in the cassette fails.
    [
      'test',
      file,
      '--mode',
      mode,
      '--upstream',
      mode === 'record' ? upstream.url : 'http://127.0.0.1:9',
      '--json',
      report,
    ],
    { env: { OPENAI_API_KEY: key }, cwd: folder },
  );
  const output = result.stdout + result.stderr;
  if (!existsSync(report)) throw new Error(`calltape test wrote no report:\n${output}`);
  return {
    status: result.status,
    output,
    report: JSON.parse(readFileSync(report, 'utf8')) as Report,
  };
}

/** Each turn: its number, verdict and the calls made in it. */
function turnVerdicts(report: Report): unknown {
  return report.cases.map((item) =>
    item.conversation?.turns.map((turn) => [
      turn.turn,
      turn.status,
      turn.calls.map((call) => call.name),
    ]),
  );
}

const expectedTurns = [
  [
    [1, 'pass', []],
    [2, 'pass', ['get_order']],
    [3, 'pass', ['issue_refund']],
    [4, 'pass', []],
  ],
];

describe.each([
  [
    'TypeScript, process protocol',
    () => Promise.resolve({ command: typescriptAgent, protocol: 'jsonl' }),
  ],
  ['TypeScript, HTTP protocol', async () => ({ url: await serveAgent(typescriptAgent) })],
  ['Python, process protocol', () => Promise.resolve({ command: pythonAgent, protocol: 'jsonl' })],
  ['Python, HTTP protocol', async () => ({ url: await serveAgent(pythonAgent) })],
])('the example refund agent (%s) through the 4-turn example suite', (_name, agentFor) => {
  it(
    'records the conversation with per-turn verdicts, then replays it offline to the same verdicts',
    async () => {
      const folder = temporaryFolder();
      const suite = { ...exampleSuite(), cassette: 'refund.sqlite', agent: await agentFor() };
      const recorded = await runSuite(folder, suite, 'record');
      expect(turnVerdicts(recorded.report), recorded.output).toEqual(expectedTurns);
      expect(recorded.report.cases[0]?.conversation?.turns.map((turn) => turn.reply)).toEqual([
        'Which order would you like refunded?',
        'Order A-17 is a kettle for 42 EUR. Shall I refund it?',
        'Done: order A-17 is refunded (refund R-1).',
        'You are welcome. Goodbye!',
      ]);
      expect(recorded.report.cases[0]?.status).toBe('pass');
      expect(recorded.status, recorded.output).toBe(0);

      const replayed = await runSuite(folder, suite, 'replay');
      expect(turnVerdicts(replayed.report), replayed.output).toEqual(expectedTurns);
      expect(replayed.status, replayed.output).toBe(0);
    },
    twoRuns,
  );
});

describe('a turn expectation that should fail, with a conversing agent', () => {
  it(
    'fails that turn, naming it, and passes the others',
    async () => {
      const folder = temporaryFolder();
      const suite = exampleSuite();
      const [refund] = suite.cases;
      if (!refund) throw new Error('the example suite has no case');
      // Turn 2 is only the look-up: a refund there is what the agent must not do.
      refund.turns[1] = { user: 'It is order A-17', expected_tool: 'issue_refund' };
      const result = await runSuite(
        folder,
        {
          ...suite,
          cassette: 'refund.sqlite',
          agent: { command: typescriptAgent, protocol: 'jsonl' },
        },
        'record',
      );
      const [item] = result.report.cases;
      expect(item?.conversation?.turns.map((turn) => turn.status)).toEqual([
        'pass',
        'fail',
        'pass',
        'pass',
      ]);
      expect(item?.status).toBe('fail');
      expect(item?.problems.join('\n')).toMatch(/turn 2/);
      expect(result.status).toBe(1);
    },
    twoRuns,
  );
});

describe('an agent that breaks the process protocol on turn 2', () => {
  it.each([
    [
      'crash',
      /turn 2: the agent exited with code 1 before answering: .*the order database is gone/,
    ],
    ['silent', /turn 2: the agent did not answer within 3000 ms/],
    [
      'malformed',
      /turn 2: the agent wrote a malformed protocol line: text: expected a string or null, got 42/,
    ],
    ['oversize', /turn 2: the agent wrote a line over 1048576 bytes/],
  ])(
    '%s: the case is an error naming turn 2, not a hang and not a verdict',
    async (how, message) => {
      const folder = temporaryFolder();
      const suite = {
        ...exampleSuite(),
        cassette: 'refund.sqlite',
        agent: {
          command: misbehavingAgent,
          protocol: 'jsonl',
          turn_timeout_ms: 3000,
          env: { MISBEHAVE: how },
        },
      };
      const result = await runSuite(folder, suite, 'record');
      const [item] = result.report.cases;
      expect(item?.status, result.output).toBe('error');
      expect(item?.problems.join('\n')).toMatch(message);
      expect(item?.conversation?.ended_by).toBe('error');
      expect(result.status).not.toBe(0);
    },
    twoRuns,
  );
});

describe('a single-prompt case with an agent that converses', () => {
  it.each([
    [
      'process (TypeScript)',
      () => Promise.resolve({ command: typescriptAgent, protocol: 'jsonl' }),
    ],
    ['HTTP (Python)', async () => ({ url: await serveAgent(pythonAgent) })],
  ])(
    '%s: is a one-turn conversation whose prompt is the user turn',
    async (_name, agentFor) => {
      const folder = temporaryFolder();
      const suite = {
        ...exampleSuite(),
        cassette: 'refund.sqlite',
        agent: await agentFor(),
        cases: [
          {
            test_id: 'look-up',
            prompt: 'Please refund order A-17',
            expected_tool: 'get_order',
            arguments: { order_id: 'A-17' },
            never: ['issue_refund'],
          },
        ],
      };
      const result = await runSuite(folder, suite, 'record');
      expect(
        result.report.cases.map((item) => [item.test_id, item.status, item.problems]),
        result.output,
      ).toEqual([['look-up', 'pass', []]]);
      expect(result.status).toBe(0);
    },
    twoRuns,
  );
});
