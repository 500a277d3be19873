import type Database from 'better-sqlite3';
import type { CanonicalRequest } from '../canonical-request.js';
import { describeMismatch, type Mismatch } from '../describe-mismatch.js';
import { openCassette } from './open-cassette.js';
import { parseSampleSession } from '../sample-session.js';

/** A stored response, ready to be re-emitted. */
export interface Recording {
  readonly seq: number;
  readonly id: string;
  readonly status: string;
  readonly httpStatus: number;
  readonly error: string | null;
  readonly ending: string | null;
  readonly headers: Record<string, string | string[]> | undefined;
  readonly body: Buffer | undefined;
  /** `[endOffset, atMs]` per recorded chunk. */
  readonly chunks: readonly (readonly [number, number])[];
  readonly startedAt: number;
}

/** The nearest recording to a request that matched none, and how it differs. */
export interface NearestRecording {
  readonly id: string;
  readonly mismatch: Mismatch;
}

/**
 * Read side of a cassette for replay: lookups by (key, ordinal) through an index, so their cost
 * does not grow with the cassette. Runs on the proxy thread beside the store worker's writer
 * (WAL lets them work at once; recordings the worker commits become visible here).
 */
export class CassetteReader {
  private readonly db: Database.Database;
  private readonly findStatement: Database.Statement;
  /** The same, of one session only. */
  private readonly findOwnStatement: Database.Statement;
  private readonly lastOrdinalStatement: Database.Statement;
  private readonly candidatesStatement: Database.Statement;
  private readonly idsStatement: Database.Statement<[], string>;

  /** `database`: a connection already open on the cassette (replay's read-only one, or its in-memory copy). */
  constructor(
    readonly path: string,
    database?: Database.Database,
  ) {
    this.db = database ?? openCassette(path, 'read');
    const columns =
      'seq, id, status, http_status, error, ending, response_headers, response_body, response_chunks, started_at';
    // Prefer the recording made in the same session, then the newest: recording a request again
    // supersedes what was recorded before (serving the earliest made a re-recording invisible).
    this.findStatement = this.db.prepare(
      `SELECT ${columns} FROM interactions WHERE request_key = ? AND key_ordinal = ? ORDER BY (ordinal_scope = ?) DESC, started_at DESC, seq DESC LIMIT 1`,
    );
    this.findOwnStatement = this.db.prepare(
      `SELECT ${columns} FROM interactions WHERE request_key = ? AND key_ordinal = ? AND ordinal_scope = ? ORDER BY started_at DESC, seq DESC LIMIT 1`,
    );
    this.lastOrdinalStatement = this.db
      .prepare('SELECT max(key_ordinal) FROM interactions WHERE request_key = ?')
      .pluck();
    this.candidatesStatement = this.db.prepare(
      'SELECT id, canonical_request FROM interactions WHERE method = ? AND canonical_request IS NOT NULL ORDER BY seq DESC LIMIT 5000',
    );
    this.idsStatement = this.db
      .prepare<[], string>('SELECT id FROM interactions WHERE request_key IS NOT NULL ORDER BY seq')
      .pluck();
  }

  find(key: string, ordinal: number, scope: string): Recording | undefined {
    // A repeated case's sample k ≥ 2 is its own recording: served another session's, every
    // sample would replay the same answer and a flaky case would look steady.
    const statement =
      parseSampleSession(scope).sample > 1 ? this.findOwnStatement : this.findStatement;
    const row = statement.get(key, ordinal, scope) as RecordingRow | undefined;
    return row && toRecording(row);
  }

  /** Highest ordinal recorded for a key, or undefined when the key was never recorded. */
  lastOrdinal(key: string): number | undefined {
    const value = this.lastOrdinalStatement.get(key) as number | null;
    return value ?? undefined;
  }

  /** The recording whose canonical request differs least from `requested` (same method; the 5000 newest). */
  nearest(requested: CanonicalRequest): NearestRecording | undefined {
    let best: NearestRecording | undefined;
    for (const row of this.candidatesStatement.iterate(requested.method) as Iterable<{
      id: string;
      canonical_request: string;
    }>) {
      const mismatch = describeMismatch(
        JSON.parse(row.canonical_request) as CanonicalRequest,
        requested,
      );
      if (mismatch && (!best || mismatch.distance < best.mismatch.distance))
        best = { id: row.id, mismatch };
    }
    return best;
  }

  /** All recording ids, to report the ones a replay run never used. */
  ids(): string[] {
    return this.idsStatement.all();
  }

  close(): void {
    this.db.close();
  }
}

interface RecordingRow {
  seq: number;
  id: string;
  status: string;
  http_status: number;
  error: string | null;
  ending: string | null;
  response_headers: string | null;
  response_body: Buffer | null;
  response_chunks: string | null;
  started_at: number;
}

function toRecording(row: RecordingRow): Recording {
  return {
    seq: row.seq,
    id: row.id,
    status: row.status,
    httpStatus: row.http_status,
    error: row.error,
    ending: row.ending,
    headers: row.response_headers
      ? (JSON.parse(row.response_headers) as Record<string, string | string[]>)
      : undefined,
    body: row.response_body ?? undefined,
    chunks: row.response_chunks ? (JSON.parse(row.response_chunks) as [number, number][]) : [],
    startedAt: row.started_at,
  };
}
