import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ShadowStore } from './shadow-store.js';
import type { CallVerdict } from './verdict-types.js';

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

describe('ShadowStore retention', () => {
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
});
