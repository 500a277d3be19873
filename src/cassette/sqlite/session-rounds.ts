import { CalltapeError } from '../../errors.js';
import type { SessionRound } from '../recorded-exchange.js';
import { decodeContent } from '../decode-content.js';
import { headerText } from '../header-text.js';
import { parseBody } from '../match-key.js';
import { requireCassette } from './cassette-files.js';
import { openCassette } from './open-cassette.js';
import { readInteraction, type InteractionRow } from './read-interaction.js';

interface SessionRow extends InteractionRow {
  readonly agent_request_body: Buffer | null;
}

/**
 * A session's recorded round trips in capture order, read-only. A session the cassette does not
 * hold is refused (CONFIG_INVALID) naming the cassette, the session and the sessions it does
 * hold (the first few), so a mistyped id is easy to correct. The bytes are as stored: redacted.
 */
export function readSessionRounds(cassette: string, sessionId: string): SessionRound[] {
  requireCassette(cassette);
  const db = openCassette(cassette, 'read');
  try {
    const rows = db
      .prepare('SELECT * FROM interactions WHERE session_id = ? ORDER BY started_at, seq')
      .all(sessionId) as SessionRow[];
    if (rows.length === 0) {
      const known = db
        .prepare('SELECT id FROM sessions ORDER BY last_seen_at DESC LIMIT 8')
        .pluck()
        .all() as string[];
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${cassette}: no session "${sessionId}" in this cassette (${known.length === 0 ? 'it holds none' : `recent sessions: ${known.join(', ')}`})`,
        'calltape cassettes show <cassette> lists every session.',
      );
    }
    return rows.map((row) => {
      const headers = row.response_headers
        ? (JSON.parse(row.response_headers) as Record<string, string | string[]>)
        : undefined;
      const decoded =
        row.response_body && headers
          ? decodeContent(row.response_body, headerText(headers, 'content-encoding'))
          : undefined;
      return {
        interaction: readInteraction(row),
        agentRequest: parseBody((row.agent_request_body ?? row.request_body).toString('utf8')),
        response: decoded && {
          httpStatus: row.http_status,
          contentType: headerText(headers, 'content-type')?.toLowerCase(),
          body: decoded.bytes,
        },
      };
    });
  } finally {
    db.close();
  }
}
