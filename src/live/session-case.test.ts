import { describe, expect, it } from 'vitest';
import { roundTrip, user } from '../../test/support/agent-round-trip.js';
import type { Suite, SuiteCase } from '../scoring/suite-types.js';
import { buildTrajectories } from '../trace/build-trajectories.js';
import type { Trajectory } from '../trace/trajectory.js';
import { OpenSessions, type OpenSession } from './open-sessions.js';
import { sessionContext, suiteCases } from './session-case.js';

function suite(name: string, cases: readonly SuiteCase[]): Suite {
  return {
    file: `/${name}.yaml`,
    name,
    agent: undefined,
    runs: [
      {
        name: 'default',
        model: undefined,
        system: undefined,
        tools: [],
        schemas: {},
        price: undefined,
      },
    ],
    mocks: [],
    cassette: `/${name}.sqlite`,
    now: undefined,
    checks: {},
    defaults: {},
    gates: {},
    cases,
    drafts: [],
  };
}

const lookupA: SuiteCase = { test_id: 'lookup-a', expected_tool: 'lookup', arguments: { id: 'A' } };
const lookupB: SuiteCase = { test_id: 'lookup-b', expected_tool: 'lookup', arguments: { id: 'B' } };
const deletes: SuiteCase = { test_id: 'deletes', expected_tool: 'delete', arguments: {} };
const cases = suiteCases([suite('first', [lookupA, lookupB]), suite('second', [deletes])]);

/** A session of one `lookup("A")` round trip, tagged `caseId`, and its trajectory. */
function session(caseId: string | undefined): { open: OpenSession; trajectory: Trajectory } {
  const sessions = new OpenSessions();
  sessions.touch('s', roundTrip('s', 0, [user('go')]), caseId, 0, new Set());
  const [open] = sessions.takeAll();
  if (!open) throw new Error('no session');
  const [trajectory] = buildTrajectories(open.interactions);
  if (!trajectory) throw new Error('no trajectory');
  return { open, trajectory };
}

describe('suiteCases', () => {
  it('finds every case of every suite by its test id, with its suite and place', () => {
    expect([...cases.keys()]).toEqual(['lookup-a', 'lookup-b', 'deletes']);
    expect(cases.get('lookup-b')).toMatchObject({ testCase: lookupB, index: 1 });
    expect(cases.get('deletes')?.suite.name).toBe('second');
  });
});

describe('sessionContext', () => {
  it('scores the session against its case as a suite run would, and knows no case it was not given', async () => {
    const { open, trajectory } = session('lookup-a');
    const context = sessionContext(open, cases, {});
    expect(context.caseId).toBe('lookup-a');
    expect(await context.scoreCase?.('lookup-a', trajectory)).toEqual({
      status: 'pass',
      score: 1,
      problems: [],
    });
    expect(await context.scoreCase?.('lookup-b', trajectory)).toMatchObject({ status: 'fail' });
    expect(await context.scoreCase?.('unknown', trajectory)).toBeUndefined();
  });

  it('calls a session not offered the expected tool an error, not a verdict on the agent', async () => {
    const { open, trajectory } = session('deletes');
    const result = await sessionContext(open, cases, {}).scoreCase?.('deletes', trajectory);
    expect(result?.status).toBe('error');
    expect(result?.problems[0]).toMatch(/the expected tool delete was not offered/);
  });

  it('hands the judges on, and only those given', () => {
    const codeJudge = () => Promise.resolve({ pass: true });
    const { open } = session(undefined);
    const context = sessionContext(open, cases, { codeJudge });
    expect(context.codeJudge).toBe(codeJudge);
    expect(Object.hasOwn(context, 'llmJudge')).toBe(false);
  });
});
