import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../package-root.js';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { viewApiErrors } from '../../test/support/view-api-schema.js';
import { storeViewRuns } from '../../test/support/view-runs.js';
import { startViewServer, type ViewServer } from './view-server.js';

const folder = temporaryFolder();
const runsDb = join(folder, 'calltape-runs.sqlite');
let project: ViewServer | undefined;
let elsewhere: ViewServer | undefined;

beforeAll(async () => {
  storeViewRuns(runsDb);
  // Served from the package folder, the bank demo's cassette is a project file; from a temporary folder it is not.
  const options = { runsDb, host: '127.0.0.1', port: 0, token: undefined };
  project = await startViewServer({ ...options, cwd: packageRoot });
  elsewhere = await startViewServer({ ...options, cwd: folder });
});
afterAll(async () => {
  await project?.close();
  await elsewhere?.close();
});

async function json(server: ViewServer | undefined, path: string) {
  const answer = await request(`${(server as ViewServer).origin}/calltape/api/v1/${path}`);
  return { status: answer.statusCode, body: JSON.parse(await answer.body.text()) };
}

describe('calltape view run, case and compare API', () => {
  it('answers a run with its gates, its cases (flaky marks, changes from the baseline) and its misses', async () => {
    const { status, body } = await json(project, 'runs/2');
    expect(status).toBe(200);
    expect(viewApiErrors('run', body)).toEqual([]);
    expect(body.cases.map((row: { test_id: string }) => row.test_id)).toEqual([
      'TC-001',
      'TC-005',
      'TC-010',
      'TC-020',
    ]);
    expect(body.cases[1].samples).toEqual({ passed: 2, total: 3, flaky: true });
    expect(body.cases[2]).toMatchObject({ status: 'fail', called: ['get_balance'] });
    expect(body.cases[2].change).toContain('account_type');
    expect(body.gates[0]).toMatchObject({ gate: 'pass_rate', pass: false });
    expect(body.replay_misses.groups[0].meaning).toBe('the system prompt');
    expect(body.run).toMatchObject({ git_branch: 'feature/eur', git_commit: '9f8e7d6c5b4a' });
  });

  it('answers a case with its per-argument verdicts, its recording from the cassette and the command that re-runs it', async () => {
    const { status, body } = await json(project, 'runs/2/cases/default/TC-010');
    expect(status).toBe(200);
    expect(viewApiErrors('case', body)).toEqual([]);
    expect(body.result.call.mismatches.currency).toMatchObject({
      reason: 'unexpected_argument',
      strategy: 'exact',
    });
    expect(body.change.verdict).toMatchObject({
      before: 'pass',
      after: 'fail',
      kind: 'regression',
    });
    expect(body.recording).toMatchObject({
      cassette: 'recordings/bank-demo.sqlite',
      session: 'TC-010',
      present: true,
      note: null,
    });
    const [first] = body.recording.rounds;
    expect(first.messages.some((message: { role: string }) => message.role === 'user')).toBe(true);
    const calls = body.recording.rounds.flatMap((round: { calls: unknown[] }) => round.calls);
    expect(calls[0]).toMatchObject({ name: 'get_balance' });
    expect(calls[0].result).not.toBeNull();
    expect(body.rerun_command).toBe(
      'calltape test examples/bank/suite.yaml --filter TC-010 --mode replay',
    );
  });

  it('answers a conversation case with each turn and its verdict', async () => {
    const { body } = await json(project, 'runs/2/cases/default/TC-020');
    expect(viewApiErrors('case', body)).toEqual([]);
    expect(body.result.conversation.turns.map((turn: { status: string }) => turn.status)).toEqual([
      'pass',
      'fail',
    ]);
  });

  it('does not read a cassette outside the project it serves, and says so', async () => {
    const { body } = await json(elsewhere, 'runs/2/cases/default/TC-010');
    expect(viewApiErrors('case', body)).toEqual([]);
    expect(body.recording).toMatchObject({ present: false, rounds: [] });
    expect(body.recording.note).toMatch(/outside the project/);
  });

  it('compares two runs: flips, arguments changed, and the later run’s replay misses', async () => {
    const { status, body } = await json(project, 'compare/1/2');
    expect(status).toBe(200);
    expect(viewApiErrors('compare', body)).toEqual([]);
    const [change] = body.diff.cases;
    expect(change).toMatchObject({ test_id: 'TC-010', verdict: { kind: 'regression' } });
    expect(change.arguments.map((argument: { path: string }) => argument.path).sort()).toEqual([
      'account_type',
      'currency',
    ]);
    expect(body.replay_misses.groups).toHaveLength(1);
  });

  it('answers 404 in its error shape for a missing run or case', async () => {
    for (const path of [
      'runs/99',
      'runs/x',
      'runs/2/cases/default/nope',
      'compare/1/99',
      'runs/2/cases/default',
    ]) {
      const { status, body } = await json(project, path);
      expect(status, path).toBe(404);
      expect(viewApiErrors('error', body)).toEqual([]);
    }
  });
});
