import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveMetrics } from './live-metrics.js';
import { RecentActivity } from './recent-activity.js';
import { roundErrorVerdict, scoringErrorVerdict } from './scoring-error-verdict.js';
import { shadowReport } from './shadow-report.js';
import { shadowReportText } from './shadow-report-text.js';
import { ShadowStore } from './shadow-store.js';
import { shownVerdict, type CallVerdict } from './verdict-types.js';
import { feedFilterOf, matchesFilter } from './feed-events.js';

const folder = mkdtempSync(join(tmpdir(), 'calltape-scoring-error-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const where = {
  at: 120_000,
  interactionId: 'i1',
  sessionId: 's1',
  wire: 'openai-chat' as const,
  model: 'm',
  tool: 'lookup',
  callIndex: 0,
  arguments: '{"id":"A"}',
  mocked: false,
};
const errored = scoringErrorVerdict(where, new TypeError('boom'));
const unread = roundErrorVerdict(
  { at: 120_000, interactionId: 'i2', sessionId: 's2', wire: 'openai-chat' },
  'the body did not decode',
  'read',
);
const passed: CallVerdict = {
  ...where,
  interactionId: 'i3',
  verdict: 'pass',
  score: 1,
  evaluated: ['schema'],
  failures: [],
};

describe('the error verdict (issue 30: a round that cannot be scored is never a silent loss)', () => {
  it('says why, evaluated no policy, and is no verdict on the agent', () => {
    expect(errored).toMatchObject({
      verdict: 'error',
      score: 0,
      evaluated: [],
      failures: [
        {
          policy: '(scoring)',
          reason: 'scoring_error',
          message: 'the call could not be scored: TypeError: boom',
        },
      ],
    });
    expect(unread).toMatchObject({
      tool: '',
      callIndex: -1,
      model: 'unknown',
      verdict: 'error',
      failures: [{ message: 'the round could not be read: the body did not decode' }],
    });
  });

  it('is published on the feed (and its verdict=error filter), unlike a call no policy applied to', () => {
    expect([errored, unread, passed].map(shownVerdict)).toEqual([true, true, true]);
    expect(shownVerdict({ ...passed, evaluated: [] })).toBe(false);
    const event = { type: 'call.scored' as const, ...errored };
    expect(matchesFilter(event, feedFilterOf(new URLSearchParams('verdict=error')))).toBe(true);
    expect(
      matchesFilter(event, feedFilterOf(new URLSearchParams('tool=lookup&verdict=error'))),
    ).toBe(true);
  });

  it('is counted in /metrics under verdict="error", and not as a policy failure', async () => {
    const metrics = new LiveMetrics(() => 0);
    metrics.calls([errored, unread, passed]);
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'calltape_tool_calls_scored_total{tool="lookup",model="m",verdict="error"} 1',
    );
    expect(text).toContain(
      'calltape_tool_calls_scored_total{tool="unknown",model="unknown",verdict="error"} 1',
    );
    expect(text).toContain(
      'calltape_tool_calls_scored_total{tool="lookup",model="m",verdict="pass"} 1',
    );
    expect(text).not.toContain('scoring_error');
  });

  it('is stored with its reason, left out of the policies’ pass rates, and counted by calltape shadow report', () => {
    const database = join(folder, 'shadow.sqlite');
    const store = new ShadowStore(database, { maxRows: null, maxAgeMs: null });
    store.write([errored, unread, passed], []);
    store.close();
    const db = new Database(database, { readonly: true });
    expect(db.prepare('SELECT interaction_id, verdict FROM calls ORDER BY id').raw().all()).toEqual(
      [
        ['i1', 'error'],
        ['i2', 'error'],
        ['i3', 'pass'],
      ],
    );
    expect(db.prepare('SELECT reason FROM failures').pluck().all()).toEqual([
      'scoring_error',
      'scoring_error',
    ]);
    expect(db.prepare('SELECT policy, evaluated, failed FROM policy_counts').raw().all()).toEqual([
      ['schema', 1, 0],
    ]);
    db.close();
    // `calltape shadow report` says so.
    const report = shadowReport(database, 0, 180_000);
    expect(report).toMatchObject({ calls: 1, unscored: 2 });
    expect(report.byTool).toEqual([
      { name: 'lookup', evaluated: 1, failed: 0, passRate: 1, meanScore: 1 },
    ]);
    expect(report.offenders.map((offender) => offender.reason)).toContain('scoring_error');
    expect(shadowReportText(report)).toContain(
      '2 call(s) could not be scored: error verdicts, reason scoring_error',
    );
  });

  it('is listed among the dashboard’s recent calls, but counted in no tool’s pass rate', () => {
    const recent = new RecentActivity();
    recent.addCalls([errored, unread, passed]);
    const snapshot = recent.snapshot();
    expect(snapshot.calls.map((call) => call.verdict)).toEqual(['error', 'error', 'pass']);
    expect(snapshot.passRates).toEqual({ lookup: [{ minute: 2, passed: 1, failed: 0 }] });
  });
});
