import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from '../cassette/sqlite/migrations.js';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { McpStore } from './mcp-store.js';
import type { McpExchange } from './mcp-exchange.js';

const exchange: McpExchange = {
  id: '0190a0b0-0000-7000-8000-000000000001',
  sessionId: 's',
  sessionGiven: true,
  server: 'notes',
  method: 'tools/call',
  subject: 'add',
  params: { name: 'add', arguments: { a: 1 } },
  result: { content: [] },
  error: undefined,
  key: 'k',
  canonical: '{}',
  ordinal: 0,
  startedAt: 1000,
  totalMs: 2,
  mockSet: undefined,
};

/** A cassette as the calltape before the MCP trace columns wrote it: schema one migration behind, one exchange. */
function oldCassette(): string {
  const path = join(temporaryFolder(), 'old.sqlite');
  const db = new Database(path);
  for (const sql of migrations.slice(0, -1)) db.exec(sql);
  db.pragma(`user_version = ${migrations.length - 1}`);
  db.prepare(
    `INSERT INTO mcp_exchanges (id, session_id, session_given, server, method, subject, params, result, error, is_error,
       request_key, canonical_request, key_ordinal, started_at, total_ms, mock_set)
     VALUES ('old-1', 's', 1, 'notes', 'tools/call', 'add', '{}', '{}', NULL, 0, 'k', '{}', 0, 500, 1, NULL)`,
  ).run();
  db.close();
  return path;
}

describe('McpStore and the MCP trace columns (request id, transport, MCP session, protocol version)', () => {
  it('reads a cassette recorded before them read-only, without migrating it', () => {
    const path = oldCassette();
    const store = new McpStore(path, { readonly: true });
    const [row] = store.list();
    store.close();
    expect(row).toMatchObject({ id: 'old-1', subject: 'add' });
    expect(row?.requestId).toBeUndefined();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length - 1);
    db.close();
  });

  it('migrates such a cassette when it records, keeping the old row and storing the new fields', () => {
    const path = oldCassette();
    const writer = new McpStore(path, { readonly: false });
    writer.append({
      ...exchange,
      requestId: '7',
      transport: 'http',
      mcpSessionId: 'abc',
      protocolVersion: '2025-06-18',
    });
    const rows = writer.list();
    writer.close();
    expect(rows.map((row) => row.id)).toEqual(['old-1', exchange.id]);
    expect(rows[1]).toMatchObject({
      requestId: '7',
      transport: 'http',
      mcpSessionId: 'abc',
      protocolVersion: '2025-06-18',
    });
  });
});

describe('McpStore.find after recording the same call again (regression: replay served the first recording forever)', () => {
  it('serves the newest recording of the Nth identical call, preferring the same session', () => {
    const path = join(temporaryFolder(), 'again.sqlite');
    const writer = new McpStore(path, { readonly: false });
    writer.append(exchange);
    writer.append({
      ...exchange,
      id: '0190a0b0-0000-7000-8000-000000000002',
      result: { content: [{ type: 'text', text: 'new' }] },
      startedAt: 2000,
    });
    writer.append({
      ...exchange,
      id: '0190a0b0-0000-7000-8000-000000000003',
      sessionId: 'other',
      startedAt: 3000,
    });
    expect(writer.find('notes', 'k', 0, 's')?.id).toBe('0190a0b0-0000-7000-8000-000000000002');
    expect(writer.find('notes', 'k', 0, 'elsewhere')?.id).toBe(
      '0190a0b0-0000-7000-8000-000000000003',
    );
    writer.close();
  });
});
