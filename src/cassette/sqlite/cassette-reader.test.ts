import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../../test/support/test-proxy.js';
import { CassetteReader } from './cassette-reader.js';
import { openCassette } from './open-cassette.js';
import { closeAtRest } from './close-at-rest.js';

/** A cassette holding the same request (key k, ordinal 0) recorded at each time, in that order. */
function recordedAt(times: readonly (readonly [id: string, at: number, scope: string])[]): string {
  const path = join(temporaryFolder(), 'again.sqlite');
  const db = openCassette(path, 'write');
  db.prepare("INSERT INTO sessions (id, first_seen_at, last_seen_at) VALUES ('s', 0, 0)").run();
  const insert = db.prepare(
    `INSERT INTO interactions (id, session_id, provider, method, path, stream, status, http_status,
       started_at, total_ms, request_headers, request_body, request_key, key_ordinal, ordinal_scope)
     VALUES (?, 's', 'openai', 'POST', '/v1/chat/completions', 0, 'complete', 200, ?, 1, '{}', x'7b7d', 'k', 0, ?)`,
  );
  for (const [id, at, scope] of times) insert.run(id, at, scope);
  closeAtRest(db);
  return path;
}

describe('CassetteReader.find after recording a request again (regression: replay served the first recording forever)', () => {
  it('serves the newest recording of the Nth identical request, preferring the same session', () => {
    const reader = new CassetteReader(
      recordedAt([
        ['first', 1000, ''],
        ['again', 2000, ''],
        ['elsewhere', 3000, 'other'],
      ]),
    );
    try {
      expect(reader.find('k', 0, '')?.id).toBe('again');
      expect(reader.find('k', 0, 'other')?.id).toBe('elsewhere');
      expect(reader.find('k', 0, 'unseen')?.id).toBe('elsewhere');
    } finally {
      reader.close();
    }
  });
});

describe('CassetteReader.find for a sample of a repeated case', () => {
  it("serves sample k ≥ 2 only its own session's recording, while sample 1 keeps its own", () => {
    const reader = new CassetteReader(
      recordedAt([
        ['sample-1', 1000, 'refund'],
        ['sample-3', 2000, 'refund#3'],
      ]),
    );
    try {
      expect(reader.find('k', 0, 'refund#3')?.id).toBe('sample-3');
      // Sample 2 was never recorded: a miss (auto records it), never sample 1's or 3's answer.
      expect(reader.find('k', 0, 'refund#2')).toBeUndefined();
      expect(reader.find('k', 0, 'refund')?.id).toBe('sample-1');
    } finally {
      reader.close();
    }
  });
});
