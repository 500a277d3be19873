import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../trace/trajectory.js';
import { roundTrip, user } from '../../test/support/agent-round-trip.js';
import type { Policies } from './policy-types.js';
import type { RelayedMcpCall } from './relayed-mcp-calls.js';
import { ShadowScorer } from './shadow-scorer.js';

const policies: Policies = {
  file: '/policies.yaml',
  sessionIdleMs: 1_000,
  maxOpenSessions: 2,
  policies: [
    { id: 'schema', kind: 'schema' },
    { id: 'loops', kind: 'steps', max_repeats: 2 },
    { id: 'judge', kind: 'judge', code: '/judge.mjs' },
  ],
  suites: [],
  judge: { model: 'm', apiKeyEnv: undefined, embeddingModel: 'e' },
  alerts: undefined,
};

describe('ShadowScorer', () => {
  it('scores calls as they come and sessions when they idle out, with tool results paired and history kept once', async () => {
    const judged: Trajectory[] = [];
    const scorer = new ShadowScorer(policies, {
      codeJudge: (_spec, trajectory) => (judged.push(trajectory), Promise.resolve({ pass: true })),
    });
    const history = [user('x'.repeat(10_000))];
    for (let turn = 0; turn < 3; turn++) {
      const { verdicts } = await scorer.scoreInteraction(
        roundTrip('s', turn, history),
        undefined,
        10 * turn,
      );
      expect(verdicts).toMatchObject([
        { tool: 'lookup', verdict: 'pass', evaluated: ['schema'], sessionId: 's' },
      ]);
    }
    expect(scorer.takeIdle(500)).toEqual([]);
    const idle = scorer.takeIdle(1_020);
    expect(idle.map((session) => session.id)).toEqual(['s']);
    // The resent history is not kept: only each tool result, once.
    expect(
      idle[0]?.interactions.map((interaction) =>
        interaction.request.messages.map((message) => message.text),
      ),
    ).toEqual([[], ['result 0'], ['result 1']]);
    const [verdict] = await scorer.endSessions(idle);
    expect(verdict).toMatchObject({
      sessionId: 's',
      verdict: 'fail',
      turns: 3,
      calls: 3,
      evaluated: ['loops', 'judge'],
      failures: [{ policy: 'loops', reason: 'repeated_call' }],
    });
    expect(judged[0]?.calls.map((call) => call.result?.text)).toEqual([
      'result 0',
      'result 1',
      undefined,
    ]);
  });

  it('ends the longest-idle session early when too many are open', async () => {
    const scorer = new ShadowScorer(policies, {});
    for (const [index, session] of ['a', 'b', 'a', 'c'].entries()) {
      const { evicted } = await scorer.scoreInteraction(
        roundTrip(session, index, [user(session)]),
        undefined,
        index,
      );
      expect(evicted.map((item) => item.id)).toEqual(session === 'c' ? ['b'] : []);
    }
    expect(scorer.takeAll().map((session) => session.id)).toEqual(['a', 'c']);
  });

  it('puts the MCP calls the proxy relayed into the session: server and verdict on the model call each carried out, and calls no model call asked for', async () => {
    const judged: Trajectory[] = [];
    const scorer = new ShadowScorer(policies, {
      codeJudge: (_spec, trajectory) => (judged.push(trajectory), Promise.resolve({ pass: true })),
    });
    const relayed = (call: Partial<RelayedMcpCall> & { id: string }): RelayedMcpCall => ({
      sessionId: 's',
      sessionGiven: true,
      startedAt: 1_000.5,
      server: 'notes',
      subject: 'lookup',
      params: { name: 'lookup', arguments: { id: 'A' } },
      result: { content: [{ type: 'text', text: 'found' }] },
      error: undefined,
      ...call,
    });
    scorer.noteMcpCalls([
      // Session given: carries out the first call, and fails.
      relayed({ id: 'm1', result: { content: [{ type: 'text', text: 'no' }], isError: true } }),
      // No session of its own: joined by name and arguments, a JSON-RPC error.
      relayed({
        id: 'm2',
        sessionId: 'relay-own',
        sessionGiven: false,
        startedAt: 1_001.5,
        result: undefined,
        error: { code: -32602, message: 'bad id' },
      }),
      // In the session, but no model call asked for it.
      relayed({
        id: 'm3',
        subject: 'forget',
        params: { name: 'forget', arguments: { all: true } },
      }),
      // Another session's, and one nothing here explains: neither is this session's.
      relayed({ id: 'm4', sessionId: 'other', startedAt: 1_010 }),
      relayed({ id: 'm5', sessionGiven: false, sessionId: 'relay-own', subject: 'elsewhere' }),
    ]);
    const history = [user('go')];
    for (let turn = 0; turn < 3; turn++)
      await scorer.scoreInteraction(roundTrip('s', turn, history), undefined, turn);
    const [verdict] = await scorer.endSessions(scorer.takeAll());
    expect(verdict?.trajectory).toEqual([
      expect.objectContaining({ turn: 1, tool: 'lookup', server: 'notes', outcome: 'failed' }),
      expect.objectContaining({ turn: 2, tool: 'lookup', server: 'notes', outcome: 'failed' }),
      expect.not.objectContaining({ server: expect.anything() as unknown }),
      {
        turn: 1,
        tool: 'forget',
        arguments: '{"all":true}',
        verdict: 'unscored',
        failures: [],
        server: 'notes',
        unasked: true,
        outcome: 'succeeded',
      },
    ]);
    // The session's judges see the servers' verdicts, which the agent's tool messages did not carry.
    expect(judged[0]?.calls.map((call) => call.result?.isError)).toEqual([true, true, undefined]);

    // What this session did not take waits for its own: `m4` joins session `other`'s call.
    await scorer.scoreInteraction(roundTrip('other', 5, [user('go')]), undefined, 10);
    const [other] = await scorer.endSessions(scorer.takeAll());
    expect(other?.trajectory).toEqual([
      expect.objectContaining({ tool: 'lookup', server: 'notes', outcome: 'succeeded' }),
    ]);
  });

  it('counts the MCP calls no model call asked for toward step budgets, under their own names, but not as turns', async () => {
    const scorer = new ShadowScorer(
      {
        ...policies,
        policies: [
          { id: 'budget', kind: 'steps', max_steps: 2 },
          { id: 'forget-once', kind: 'steps', max_calls_per_tool: { forget: 1 } },
          { id: 'one-round', kind: 'steps', max_rounds: 1 },
        ],
      },
      {},
    );
    const forget = (id: string, startedAt: number): RelayedMcpCall => ({
      id,
      sessionId: 's',
      sessionGiven: true,
      startedAt,
      server: 'notes',
      subject: 'forget',
      params: { name: 'forget', arguments: { all: true } },
      result: { content: [] },
      error: undefined,
    });
    scorer.noteMcpCalls([forget('m2', 1_000.7), forget('m1', 1_000.5)]);
    await scorer.scoreInteraction(roundTrip('s', 0, [user('go')]), undefined, 0);
    const [verdict] = await scorer.endSessions(scorer.takeAll());
    expect(verdict?.failures).toEqual([
      {
        policy: 'budget',
        reason: 'too_many_steps',
        message:
          '3 tool call(s) (including 2 MCP call(s) no model call asked for), at most 2 allowed',
      },
      {
        policy: 'forget-once',
        reason: 'tool_limit_exceeded',
        message:
          'forget was called 2 times (including 2 MCP call(s) no model call asked for), at most 1 allowed',
      },
    ]);
    // The model's own count stays what the model did.
    expect(verdict?.calls).toBe(1);
  });

  it('asks for embeddings only while a semantic rule is in force, and again after policies change', async () => {
    const asked: string[][] = [];
    const scorer = new ShadowScorer(policies, {
      embeddings: (texts) => (asked.push([...texts]), Promise.resolve(() => undefined)),
    });
    await scorer.scoreInteraction(roundTrip('p', 0, [user('x')]), undefined, 0);
    expect(asked).toEqual([]);
    scorer.usePolicies({
      ...policies,
      policies: [
        {
          id: 'meaning',
          kind: 'arguments',
          tool: 'lookup',
          sample: 1,
          arguments: { id: { matching_strategy: 'semantic', value: 'the first record' } },
        },
      ],
    });
    const { verdicts } = await scorer.scoreInteraction(
      roundTrip('q', 0, [user('x')]),
      undefined,
      1,
    );
    expect(asked).toEqual([['the first record', 'A']]);
    // No embedding, no decision: no verdict on the agent.
    expect(verdicts).toMatchObject([{ verdict: 'pass', evaluated: ['meaning'] }]);
    scorer.usePolicies(policies);
    await scorer.scoreInteraction(roundTrip('r', 0, [user('x')]), undefined, 2);
    expect(asked).toHaveLength(1);
  });
});
