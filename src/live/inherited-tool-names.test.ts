import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lookupTool, roundTrip, user } from '../../test/support/agent-round-trip.js';
import type { Interaction, ToolCall } from '../trace/trace.js';
import type { Policies, Policy } from './policy-types.js';
import { ShadowScorer } from './shadow-scorer.js';
import type { CallVerdict } from './verdict-types.js';

/** Names `Object.prototype` answers to: a lookup by one of them on a plain object finds something. */
const inheritedNames = [
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__proto__',
  '__defineGetter__',
  '__lookupSetter__',
] as const;

const policiesWith = (policies: readonly Policy[]): Policies => ({
  file: '/policies.yaml',
  sessionIdleMs: 1_000,
  maxOpenSessions: 100,
  policies,
  suites: [],
  judge: { model: 'm', apiKeyEnv: undefined, embeddingModel: 'e' },
  alerts: undefined,
});
const guarded = policiesWith([
  { id: 'schema', kind: 'schema' },
  { id: 'no-close', kind: 'never', tools: ['close_account'] },
]);

/** A round of session `session` whose request declares `tools` and whose answer calls `calls`, in order. */
function round(
  id: string,
  session: string,
  tools: readonly string[],
  calls: readonly string[],
): Interaction {
  const base = roundTrip(session, 0, [user('go')]);
  const toolCalls = calls.map((name, index): ToolCall => ({
    id: `${id}_${index}`,
    index,
    name,
    argumentsRaw: '{"id":"A"}',
    arguments: { ok: true, value: { id: 'A' } },
    complete: true,
  }));
  return {
    ...base,
    id,
    request: {
      ...base.request,
      tools: tools.map((name) => ({ ...lookupTool, name, parameters: { type: 'object' } })),
    },
    response: base.response && {
      ...base.response,
      output: { ...base.response.output, toolCalls },
    },
  };
}

const summary = (verdicts: readonly CallVerdict[]): string[] =>
  verdicts.map(
    (verdict) =>
      `${verdict.tool}:${verdict.verdict}:${verdict.failures.map((failure) => failure.reason).join(',')}`,
  );

describe('issue 30: tool names the model chose are read as data in shadow scoring', () => {
  it.each(['constructor', 'toString', 'hasOwnProperty'])(
    'a %s call beside close_account neither throws nor hides the forbidden call',
    async (name) => {
      const scorer = new ShadowScorer(guarded, {});
      const { verdicts } = await scorer.scoreInteraction(
        round('i1', 's', ['close_account', 'lookup'], [name, 'close_account']),
        undefined,
        1,
      );
      expect(summary(verdicts)).toEqual([
        `${name}:fail:undeclared_tool`,
        'close_account:fail:forbidden_call',
      ]);
    },
  );

  it('an undeclared __proto__ tool fails the schema policy', async () => {
    const scorer = new ShadowScorer(guarded, {});
    const { verdicts } = await scorer.scoreInteraction(
      round('i1', 's', ['lookup'], ['__proto__']),
      undefined,
      1,
    );
    expect(summary(verdicts)).toEqual(['__proto__:fail:undeclared_tool']);
  });

  it('a declared __proto__ tool is checked against its own schema', async () => {
    const scorer = new ShadowScorer(guarded, {});
    const { verdicts } = await scorer.scoreInteraction(
      round('i1', 's', ['__proto__'], ['__proto__']),
      undefined,
      1,
    );
    expect(summary(verdicts)).toEqual(['__proto__:pass:']);
  });

  it('property: in random batches with inherited-name tools, every forbidden call is caught and every call has a verdict', async () => {
    const name = fc.constantFrom<string>(...inheritedNames, 'lookup', 'close_account');
    const roundShape = fc.record({
      tools: fc.uniqueArray(name, { maxLength: 4 }),
      calls: fc.array(name, { minLength: 1, maxLength: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(roundShape, { minLength: 1, maxLength: 6 }), async (batch) => {
        const scorer = new ShadowScorer(guarded, {});
        for (const [index, shape] of batch.entries()) {
          const { verdicts } = await scorer.scoreInteraction(
            round(`i${index}`, `s${index % 2}`, shape.tools, shape.calls),
            undefined,
            index,
          );
          expect(verdicts.map((verdict) => verdict.tool)).toEqual(shape.calls);
          for (const verdict of verdicts) {
            expect(verdict.verdict).not.toBe('error');
            const reasons = verdict.failures.map((failure) => failure.reason);
            expect(reasons.includes('forbidden_call')).toBe(verdict.tool === 'close_account');
            expect(reasons.includes('undeclared_tool')).toBe(!shape.tools.includes(verdict.tool));
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('issue 30: a call or round that cannot be scored is an error verdict, never a lost batch', () => {
  // The loader refuses such a pattern; here it stands for any policy scoring cannot use.
  const broken = policiesWith([
    { id: 'no-close', kind: 'never', tools: ['close_account'] },
    { id: 'ids', kind: 'arguments', tool: 'lookup', arguments: { id: { pattern: '(' } } },
  ]);

  it('one call whose scoring throws gets an error verdict, and the other calls of the round are scored', async () => {
    const scorer = new ShadowScorer(broken, {});
    const { verdicts } = await scorer.scoreInteraction(
      round('i1', 's', [], ['lookup', 'close_account']),
      undefined,
      1,
    );
    expect(summary(verdicts)).toEqual([
      'lookup:error:scoring_error',
      'close_account:fail:forbidden_call',
    ]);
    expect(verdicts[0]).toMatchObject({ evaluated: [], score: 0, sessionId: 's' });
    expect(verdicts[0]?.failures[0]?.message).toMatch(/^the call could not be scored: .*regex/);
    // The session keeps the error verdict as that call's step.
    const [session] = await scorer.endSessions(scorer.takeAll());
    expect(session?.trajectory.map((step) => step.verdict)).toEqual(['error', 'fail']);
  });

  it('a round whose scoring fails before its calls gets an error verdict per call instead of throwing', async () => {
    const scorer = new ShadowScorer(broken, {});
    const bad = round('i1', 's', ['lookup'], ['lookup', 'close_account']);
    // A tool definition no shape reads (a trace built by hand, not by an adapter): the declared schemas cannot be read.
    const unreadable = {
      ...bad,
      request: { ...bad.request, tools: [{ ...lookupTool, parameters: 'x' }] },
    } as unknown as Interaction;
    const { verdicts } = await scorer.scoreInteraction(unreadable, undefined, 1);
    expect(summary(verdicts)).toEqual([
      'lookup:error:scoring_error',
      'close_account:error:scoring_error',
    ]);
    const next = await scorer.scoreInteraction(
      round('i2', 't', [], ['close_account']),
      undefined,
      2,
    );
    expect(summary(next.verdicts)).toEqual(['close_account:fail:forbidden_call']);
  });
});
