import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lookupTool, roundTrip, user } from '../../test/support/agent-round-trip.js';
import type { Message } from '../trace/trace.js';
import { OpenSessions } from './open-sessions.js';

const noCase: ReadonlySet<string> = new Set();

/** Round trips of a few sessions at non-decreasing times: [session, time step]. */
const activity = fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.nat(50)), {
  maxLength: 40,
});

/** Replays `steps` into a fresh set; returns it, each session's last activity and the clock. */
function replay(steps: readonly (readonly [string, number])[]): {
  sessions: OpenSessions;
  lastAt: Map<string, number>;
  now: number;
} {
  const sessions = new OpenSessions();
  const lastAt = new Map<string, number>();
  let now = 0;
  steps.forEach(([id, step], turn) => {
    now += step;
    sessions.touch(id, roundTrip(id, turn, [user('go')]), undefined, now, noCase);
    // What the set should hold: re-inserted on every touch.
    lastAt.delete(id);
    lastAt.set(id, now);
  });
  return { sessions, lastAt, now };
}

describe('OpenSessions', () => {
  it('keeps sessions in order of last activity, however round trips interleave (property)', () => {
    fc.assert(
      fc.property(activity, (steps) => {
        const { sessions, lastAt } = replay(steps);
        const all = sessions.takeAll();
        expect(all.map((session) => session.id)).toEqual([...lastAt.keys()]);
        expect(all.map((session) => session.lastAt)).toEqual([...lastAt.values()]);
        expect(sessions.takeAll()).toEqual([]);
      }),
    );
  });

  it('takes out the longest idle beyond the limit, oldest first, and keeps the rest (property)', () => {
    fc.assert(
      fc.property(activity, fc.nat(5), (steps, max) => {
        const { sessions, lastAt } = replay(steps);
        const order = [...lastAt.keys()];
        const cut = Math.max(0, order.length - max);
        expect(sessions.takeOver(max).map((session) => session.id)).toEqual(order.slice(0, cut));
        expect(sessions.takeAll().map((session) => session.id)).toEqual(order.slice(cut));
      }),
    );
  });

  it('takes out exactly the sessions idle for the timeout, and keeps the active ones (property)', () => {
    fc.assert(
      fc.property(activity, fc.nat(100), fc.integer({ min: 1, max: 200 }), (steps, later, idle) => {
        const { sessions, lastAt, now } = replay(steps);
        const at = now + later;
        const expected = [...lastAt].filter(([, last]) => at - last >= idle).map(([id]) => id);
        expect(sessions.takeIdle(at, idle).map((session) => session.id)).toEqual(expected);
        expect(sessions.takeAll().map((session) => session.id)).toEqual(
          [...lastAt.keys()].filter((id) => !expected.includes(id)),
        );
      }),
    );
  });

  it('keeps each tool result once and the offered tools from the first round trip only, not the resent history', () => {
    const sessions = new OpenSessions();
    const history = [user('x'.repeat(10_000))];
    for (let turn = 0; turn < 3; turn++)
      sessions.touch('s', roundTrip('s', turn, history), undefined, turn, noCase);
    const [session] = sessions.takeAll();
    expect(
      session?.interactions.map((interaction) =>
        interaction.request.messages.map((message) => message.text),
      ),
    ).toEqual([[], ['result 0'], ['result 1']]);
    expect(session?.interactions.map((interaction) => interaction.request.tools)).toEqual([
      [lookupTool],
      [],
      [],
    ]);
    expect(session?.results).toEqual(new Set(['call_0', 'call_1']));
  });

  it('keeps every tool result exactly once, in the order first sent, whatever is resent (property)', () => {
    const result = (id: string): Message => ({
      role: 'tool',
      text: id,
      toolCalls: [],
      toolCallId: id,
      isError: undefined,
    });
    const requests = fc.array(fc.array(fc.constantFrom('t1', 't2', 't3', 't4'), { maxLength: 6 }), {
      maxLength: 6,
    });
    fc.assert(
      fc.property(requests, (sent) => {
        const sessions = new OpenSessions();
        sent.forEach((ids, turn) => {
          const interaction = roundTrip('s', turn, [user('go'), ...ids.map(result)]);
          sessions.touch('s', interaction, undefined, turn, noCase);
        });
        const kept = (sessions.takeAll()[0]?.interactions ?? []).flatMap((interaction) =>
          interaction.request.messages.map((message) => message.toolCallId),
        );
        expect(kept).toEqual([...new Set(sent.flat())]);
      }),
    );
  });

  it('keeps a long session’s latest 1,000 round trips', () => {
    const sessions = new OpenSessions();
    for (let turn = 0; turn < 1_005; turn++)
      sessions.touch('s', roundTrip('s', turn, []), undefined, turn, noCase);
    const interactions = sessions.takeAll()[0]?.interactions ?? [];
    expect(interactions).toHaveLength(1_000);
    expect(interactions[0]?.id).toBe('s-5');
    expect(interactions.at(-1)?.id).toBe('s-1004');
  });

  it('tags a session with the round’s case, else the one it had, else its own id when a suite has that case', () => {
    const sessions = new OpenSessions();
    const cases = new Set(['case-7']);
    const touch = (id: string, tag: string | undefined): string | undefined =>
      sessions.touch(id, roundTrip(id, 0, []), tag, 0, cases).caseId;
    expect(touch('case-7', undefined)).toBe('case-7');
    expect(touch('plain', undefined)).toBeUndefined();
    expect(touch('plain', 'tagged')).toBe('tagged');
    expect(touch('plain', undefined)).toBe('tagged');
    expect(touch('case-7', 'other')).toBe('other');
  });

  it('opens a session at its first round trip’s start and takes the model the latest request names', () => {
    const sessions = new OpenSessions();
    const first = roundTrip('s', 0, []);
    sessions.touch('s', first, undefined, 5, noCase);
    const unnamed = roundTrip('s', 1, []);
    const session = sessions.touch(
      's',
      { ...unnamed, request: { ...unnamed.request, model: undefined } },
      undefined,
      9,
      noCase,
    );
    expect(session).toMatchObject({
      startedAt: first.timing.startedAt,
      lastAt: 9,
      model: 'gpt-test',
    });
  });
});
