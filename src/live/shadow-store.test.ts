import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ShadowStore } from './shadow-store.js';
import type { CallVerdict, SessionVerdict } from './verdict-types.js';

const call = (at: number, session: string, verdict: 'pass' | 'fail'): CallVerdict => ({
  at,
  interactionId: `i-${session}`,
  sessionId: session,
  wire: 'openai-chat',
  model: 'm',
  tool: 't',
  callIndex: 0,
  arguments: '{}',
  mocked: false,
  verdict,
  score: verdict === 'pass' ? 1 : 0,
  evaluated: ['p'],
  failures: verdict === 'pass' ? [] : [{ policy: 'p', reason: 'value_mismatch', message: 'no' }],
});

const session = (endedAt: number, id: string): SessionVerdict => ({
  sessionId: id,
  caseId: undefined,
  startedAt: endedAt,
  endedAt,
  model: 'm',
  verdict: 'pass',
  score: 1,
  turns: 1,
  calls: 1,
  evaluated: ['p'],
  failures: [],
  trajectory: [],
});

describe('ShadowStore retention', () => {
  it('keeps the newest maxRows calls and sessions, whatever gaps the age limit cut into their ids (property)', () => {
    const folder = mkdtempSync(join(tmpdir(), 'calltape-shadow-'));
    let file = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        // Batches of rows, each old (past the age limit) or recent.
        fc.array(fc.array(fc.boolean(), { maxLength: 5 }), { maxLength: 8 }),
        (maxRows, batches) => {
          const path = join(folder, `rows-${file++}.sqlite`);
          const store = new ShadowStore(path, { maxRows, maxAgeMs: 3_600_000 });
          const now = Date.now();
          let kept: string[] = [];
          let name = 0;
          for (const batch of batches) {
            const rows = batch.map((old) => ({ old, id: `s${name++}` }));
            store.write(
              rows.map((row) => call(row.old ? now - 7_200_000 : now, row.id, 'pass')),
              rows.map((row) => session(row.old ? now - 7_200_000 : now, row.id)),
            );
            kept = [...kept, ...rows.filter((row) => !row.old).map((row) => row.id)].slice(
              -maxRows,
            );
          }
          store.close();
          const db = new Database(path, { readonly: true });
          try {
            expect(db.prepare('SELECT session_id FROM calls ORDER BY id').pluck().all()).toEqual(
              kept,
            );
            expect(db.prepare('SELECT session_id FROM sessions ORDER BY id').pluck().all()).toEqual(
              kept,
            );
          } finally {
            db.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("gives its writer SQLite's 2 MB page cache, not better-sqlite3's 16 MB build default", () => {
    const path = join(mkdtempSync(join(tmpdir(), 'calltape-shadow-')), 'shadow.sqlite');
    const store = new ShadowStore(path, { maxRows: null, maxAgeMs: null });
    try {
      // The connection is the store's own; its page cache is a setting of that connection.
      const { db } = (store as unknown as { db: { db: Database.Database } }).db;
      expect(db.pragma('cache_size', { simple: true })).toBe(-2000);
    } finally {
      store.close();
    }
  });

  it('drops calls, their failures and per-minute counts older than the age limit', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'calltape-shadow-')), 'shadow.sqlite');
    const store = new ShadowStore(path, { maxRows: null, maxAgeMs: 3_600_000 });
    const now = Date.now();
    store.write([call(now - 7_200_000, 'old', 'fail'), call(now - 60_000, 'recent', 'fail')], []);
    store.close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT session_id FROM calls').pluck().all()).toEqual(['recent']);
    expect(db.prepare('SELECT session_id FROM failures').pluck().all()).toEqual(['recent']);
    expect(db.prepare('SELECT sum(evaluated) FROM policy_counts').pluck().get()).toBe(1);
    db.close();
  });
  it('keeps counting from the rows already stored when it is opened again', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'calltape-shadow-')), 'shadow.sqlite');
    const now = Date.now();
    const first = new ShadowStore(path, { maxRows: 3, maxAgeMs: null });
    first.write(
      ['a', 'b', 'c', 'd'].map((id) => call(now, id, 'pass')),
      [],
    );
    first.close();
    const again = new ShadowStore(path, { maxRows: 3, maxAgeMs: null });
    again.write([call(now, 'e', 'fail')], []);
    again.close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT session_id FROM calls ORDER BY id').pluck().all()).toEqual([
      'c',
      'd',
      'e',
    ]);
    db.close();
  });

  it('retention at max_rows finds failures by index, not by scanning every failure (regression: a full table scanned on every write)', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'calltape-shadow-')), 'shadow.sqlite');
    new ShadowStore(path, { maxRows: 1, maxAgeMs: null }).close();
    const db = new Database(path, { readonly: true });
    try {
      for (const column of ['call_id', 'session_row']) {
        const plan = db
          .prepare(
            `EXPLAIN QUERY PLAN DELETE FROM failures WHERE ${column} IS NOT NULL AND ${column} < ?`,
          )
          .all(10) as { detail: string }[];
        expect(plan.map((step) => step.detail).join('; ')).toMatch(/^SEARCH failures USING INDEX/);
      }
    } finally {
      db.close();
    }
  });
});
