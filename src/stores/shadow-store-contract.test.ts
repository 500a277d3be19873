import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  freshPostgresDatabase,
  postgresSkipNote,
  postgresTestsRun,
} from '../../test/support/postgres.js';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { shadowReport } from '../live/shadow-report.js';
import { readShadowSessions } from '../live/shadow-sessions.js';
import { ShadowStore } from '../live/shadow-store.js';
import type { CallVerdict, SessionVerdict } from '../live/verdict-types.js';

const call = (at: number, session: string, tool: string, failed: boolean): CallVerdict => ({
  at,
  interactionId: `i-${session}-${at}`,
  sessionId: session,
  wire: 'openai-chat',
  model: 'gpt-x',
  tool,
  callIndex: 0,
  arguments: '{"city":"Paris"}',
  mocked: false,
  verdict: failed ? 'fail' : 'pass',
  score: failed ? 0.5 : 1,
  evaluated: ['args'],
  failures: failed
    ? [
        {
          policy: 'args',
          reason: 'value_mismatch',
          path: 'city',
          expected: 'Paris',
          actual: 'paris',
          message: 'city differs',
        },
      ]
    : [],
});

const session = (endedAt: number, id: string, failed: boolean): SessionVerdict => ({
  sessionId: id,
  caseId: 'TC-1',
  startedAt: endedAt - 1_000,
  endedAt,
  model: 'gpt-x',
  verdict: failed ? 'fail' : 'pass',
  score: failed ? 0 : 1,
  turns: 3,
  calls: 2,
  evaluated: ['steps'],
  failures: failed
    ? [{ policy: 'steps', reason: 'too_many_steps', message: '5 steps, at most 3' }]
    : [],
  trajectory: [
    { turn: 1, tool: 'get_weather', arguments: '{"city":"Paris"}', verdict: 'pass', failures: [] },
  ],
});

/**
 * The shadow store's contract, run against each backend: what the scoring thread writes,
 * `calltape shadow report` and `calltape cases promote` read back the same from either.
 */
function describeShadowStore(name: string, makeLocation: () => Promise<string>): void {
  describe(`shadow store contract: ${name}`, () => {
    let location = '';
    const now = Date.now();
    beforeAll(async () => {
      location = await makeLocation();
      // Two replicas writing into one database (for SQLite: one after the other).
      const first = new ShadowStore(location, { maxRows: null, maxAgeMs: null });
      first.write(
        [
          call(now - 3_000, 's-1', 'get_weather', true),
          call(now - 2_900, 's-1', 'get_time', false),
        ],
        [],
      );
      first.close();
      const second = new ShadowStore(location, { maxRows: null, maxAgeMs: null });
      second.write(
        [call(now - 2_000, 's-2', 'get_weather', false)],
        [session(now - 1_000, 's-1', true), session(now - 500, 's-2', false)],
      );
      second.close();
    });

    it('reports pass rates, offenders and the worst sessions over everything written', () => {
      const report = shadowReport(location, now - 60_000, now);
      expect(report.calls).toBe(3);
      expect(report.unscored).toBe(0);
      expect(report.sessions).toEqual({ total: 2, failed: 1 });
      expect(report.byTool).toEqual([
        { name: 'get_weather', evaluated: 2, failed: 1, passRate: 0.5, meanScore: 0.75 },
        { name: 'get_time', evaluated: 1, failed: 0, passRate: 1, meanScore: 1 },
      ]);
      expect(report.byPolicy.map((row) => [row.name, row.evaluated, row.failed])).toEqual([
        ['steps', 2, 1],
        ['args', 3, 1],
      ]);
      expect(report.offenders).toEqual([
        expect.objectContaining({ policy: 'args', tool: 'get_weather', count: 1, session: 's-1' }),
        expect.objectContaining({ policy: 'steps', tool: '', count: 1, session: 's-1' }),
      ]);
      expect(report.worstSessions).toEqual([
        { session: 's-1', verdict: 'fail', endedAt: now - 1_000, failures: 2 },
      ]);
    });

    it('gives cases promote the failing sessions, newest first, with every failure in order', () => {
      expect(readShadowSessions(location, { failingSince: now - 60_000 })).toEqual([
        {
          sessionId: 's-1',
          verdict: 'fail',
          endedAt: now - 1_000,
          failures: [
            'args/value_mismatch: city differs',
            'steps/too_many_steps: 5 steps, at most 3',
          ],
        },
      ]);
      expect(readShadowSessions(location, { session: 's-2' })[0]?.verdict).toBe('pass');
      expect(() => readShadowSessions(location, { session: 'nope' })).toThrow(
        /never scored a session "nope"/,
      );
    });

    it('keeps the newest maxRows calls when retention trims', () => {
      const store = new ShadowStore(location, { maxRows: 2, maxAgeMs: null });
      store.write([call(now, 's-3', 'get_time', false)], []);
      store.close();
      expect(shadowReport(location, 0, now).calls).toBe(2);
    });
  });
}

describeShadowStore('SQLite', () =>
  Promise.resolve(join(temporaryFolder(), 'calltape-shadow.sqlite')),
);
describe.runIf(postgresTestsRun)(`PostgreSQL${postgresSkipNote}`, () => {
  describeShadowStore('PostgreSQL', freshPostgresDatabase);
});
describe.skipIf(postgresTestsRun)(`shadow store contract: PostgreSQL${postgresSkipNote}`, () => {
  it.skip('runs under scripts/with-postgres.sh', () => undefined);
});
