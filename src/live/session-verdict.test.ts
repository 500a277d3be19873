import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundTrip, user } from '../../test/support/agent-round-trip.js';
import { trajectory } from '../../test/support/trajectory.js';
import type { Trajectory } from '../trace/trajectory.js';
import { OpenSessions, type OpenSession } from './open-sessions.js';
import type { SessionPolicy } from './policy-types.js';
import { RelayedMcpCalls } from './relayed-mcp-calls.js';
import { sessionVerdict, trajectorySteps } from './session-verdict.js';
import type { CallVerdict } from './verdict-types.js';

/**
 * Session `s` of `failed.length` lookup round trips, each labelled `label(turn)` (chaining puts
 * round trips of other labels in one session); the call of round trip i has failed[i] as its verdict.
 */
function session(failed: readonly boolean[], label = (_turn: number) => 's'): OpenSession {
  const sessions = new OpenSessions();
  const history = [user('go')];
  failed.forEach((fails, turn) => {
    const interaction = { ...roundTrip('s', turn, history), sessionId: label(turn) };
    const open = sessions.touch('s', interaction, undefined, turn, new Set());
    open.verdicts.set(`${interaction.id}:0`, {
      verdict: fails ? 'fail' : 'pass',
      failures: fails
        ? [{ policy: 'args', reason: 'value_mismatch', message: `turn ${turn}` }]
        : [],
    } as Partial<CallVerdict> as CallVerdict);
  });
  const [open] = sessions.takeAll();
  if (!open) throw new Error('no session');
  return open;
}

const noContext = { caseId: undefined };

describe('sessionVerdict', () => {
  it('fails a session exactly when one of its calls failed, with each call’s verdict on its step (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), async (failed) => {
        const verdict = await sessionVerdict(session(failed), [], new RelayedMcpCalls(), noContext);
        expect(verdict).toMatchObject({
          sessionId: 's',
          verdict: failed.includes(true) ? 'fail' : 'pass',
          turns: failed.length,
          calls: failed.length,
          startedAt: 1_000,
          endedAt: failed.length - 1,
          model: 'gpt-test',
        });
        expect(verdict?.trajectory).toEqual(
          failed.map((fails, turn) => ({
            turn: turn + 1,
            tool: 'lookup',
            arguments: '{"id":"A"}',
            verdict: fails ? 'fail' : 'pass',
            failures: fails ? [`args: turn ${turn}`] : [],
            // Every round trip but the last has its result in the next request.
            ...(turn < failed.length - 1 ? { outcome: 'succeeded' } : {}),
          })),
        );
      }),
    );
  });

  it('scores one trajectory under the session’s own id, whatever its round trips were labelled', async () => {
    const judged: Trajectory[] = [];
    const policies: SessionPolicy[] = [
      { id: 'judge', kind: 'judge', code: '/judge.mjs' },
      { id: 'short', kind: 'steps', max_rounds: 1 },
    ];
    const verdict = await sessionVerdict(
      session([false, false], (turn) => `label-${turn}`),
      policies,
      new RelayedMcpCalls(),
      {
        caseId: undefined,
        codeJudge: (_spec, seen) => (judged.push(seen), Promise.resolve({ pass: true })),
      },
    );
    expect(judged.map((seen) => seen.sessionId)).toEqual(['s']);
    expect(verdict).toMatchObject({
      verdict: 'fail',
      turns: 2,
      evaluated: ['judge', 'short'],
      failures: [{ policy: 'short', reason: 'too_many_rounds' }],
    });
  });

  it('has no verdict for a session with no round trip', async () => {
    const empty: OpenSession = { ...session([false]), interactions: [] };
    expect(await sessionVerdict(empty, [], new RelayedMcpCalls(), noContext)).toBeUndefined();
  });

  it('takes the relayed MCP calls of its session: the server on the call it carried out, and one no call asked for as a step', async () => {
    const relayed = new RelayedMcpCalls();
    const call = {
      sessionId: 's',
      sessionGiven: true,
      startedAt: 1_000.5,
      server: 'notes',
      error: undefined,
      result: { content: [] },
    };
    relayed.note([
      { ...call, id: 'm1', subject: 'lookup', params: { name: 'lookup', arguments: { id: 'A' } } },
      { ...call, id: 'm2', subject: 'forget', params: { name: 'forget', arguments: {} } },
    ]);
    const verdict = await sessionVerdict(session([false]), [], relayed, noContext);
    expect(verdict?.trajectory).toEqual([
      expect.objectContaining({ tool: 'lookup', server: 'notes', outcome: 'succeeded' }),
      expect.objectContaining({ tool: 'forget', server: 'notes', unasked: true }),
    ]);
    expect(relayed.take('s', [])).toEqual({ results: new Map(), servers: new Map(), unasked: [] });
  });
});

describe('trajectorySteps', () => {
  it('leaves a hosted call unscored, with the server the provider named', () => {
    const made = trajectory([[['web_search'], ['lookup', { id: 'A' }]]]);
    const [hosted, own] = made.calls;
    if (!hosted || !own) throw new Error('no calls');
    const withHosted: Trajectory = {
      ...made,
      calls: [{ ...hosted, hosted: { kind: 'mcp_call', server: 'search' } }, own],
    };
    const verdicts = new Map([
      ['i0:0', { verdict: 'fail', failures: [] } as Partial<CallVerdict> as CallVerdict],
      ['i0:1', { verdict: 'pass', failures: [] } as Partial<CallVerdict> as CallVerdict],
    ]);
    const steps = trajectorySteps(withHosted, verdicts, {
      results: new Map(),
      servers: new Map(),
      unasked: [],
    });
    expect(steps).toEqual([
      {
        turn: 1,
        tool: 'web_search',
        arguments: '{}',
        verdict: 'unscored',
        failures: [],
        hosted: true,
        server: 'search',
      },
      { turn: 1, tool: 'lookup', arguments: '{"id":"A"}', verdict: 'pass', failures: [] },
    ]);
  });
});
