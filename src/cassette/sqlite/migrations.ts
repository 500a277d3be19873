/**
 * Schema migrations of the SQLite store, applied in order; `PRAGMA user_version` holds the
 * number applied. Never edit a shipped migration: append a new one.
 * The tables are documented in docs/reference/cassette-schema.md. Ids are UUIDv7 (time-ordered), so every
 * index grows at its end: random keys made inserts 2.5× slower.
 */
export const migrations: readonly string[] = [
  `
  CREATE TABLE sessions (
    id                TEXT PRIMARY KEY,
    first_seen_at     INTEGER NOT NULL,
    last_seen_at      INTEGER NOT NULL,
    interaction_count INTEGER NOT NULL DEFAULT 0
  );

  CREATE TABLE interactions (
    seq               INTEGER PRIMARY KEY,
    id                TEXT NOT NULL UNIQUE,
    session_id        TEXT NOT NULL REFERENCES sessions(id),
    provider          TEXT NOT NULL,
    method            TEXT NOT NULL,
    path              TEXT NOT NULL,
    model             TEXT,
    response_model    TEXT,
    stream            INTEGER NOT NULL,
    status            TEXT NOT NULL,
    http_status       INTEGER NOT NULL,
    error             TEXT,
    finish_reason     TEXT,
    finish_reason_raw TEXT,
    response_text     TEXT,
    refusal           TEXT,
    input_tokens      INTEGER,
    output_tokens     INTEGER,
    total_tokens      INTEGER,
    started_at        INTEGER NOT NULL,
    first_byte_ms     REAL,
    total_ms          REAL NOT NULL,
    ending            TEXT,
    request_headers   TEXT NOT NULL,
    request_body      BLOB NOT NULL,
    response_headers  TEXT,
    response_body     BLOB,
    response_chunks   TEXT
  );
  CREATE INDEX interactions_by_session ON interactions(session_id, started_at);
  CREATE INDEX interactions_by_start ON interactions(started_at);

  CREATE TABLE tool_calls (
    interaction_id TEXT NOT NULL REFERENCES interactions(id) ON DELETE CASCADE,
    choice         INTEGER NOT NULL,
    position       INTEGER NOT NULL,
    session_id     TEXT NOT NULL,
    call_id        TEXT,
    call_index     INTEGER NOT NULL,
    name           TEXT NOT NULL,
    arguments_raw  TEXT NOT NULL,
    arguments_json TEXT,
    parse_error    TEXT,
    complete       INTEGER NOT NULL,
    PRIMARY KEY (interaction_id, choice, position)
  );
  CREATE INDEX tool_calls_by_session ON tool_calls(session_id);
  CREATE INDEX tool_calls_by_name ON tool_calls(name);
  `,
  `
  ALTER TABLE interactions ADD COLUMN request_key TEXT;
  ALTER TABLE interactions ADD COLUMN key_profile TEXT;
  ALTER TABLE interactions ADD COLUMN canonical_request TEXT;
  ALTER TABLE interactions ADD COLUMN key_ordinal INTEGER;
  ALTER TABLE interactions ADD COLUMN ordinal_scope TEXT;
  CREATE INDEX interactions_by_key ON interactions(request_key, key_ordinal);
  `,
  `
  CREATE TABLE replay_runs (
    id          INTEGER PRIMARY KEY,
    started_at  INTEGER NOT NULL,
    ended_at    INTEGER NOT NULL,
    served      INTEGER NOT NULL,
    missed      INTEGER NOT NULL
  );
  ALTER TABLE interactions ADD COLUMN last_replay_run INTEGER;
  `,
  `
  CREATE TABLE embeddings (
    model       TEXT NOT NULL,
    text_sha256 TEXT NOT NULL,
    vector      BLOB NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (model, text_sha256)
  );
  `,
  `
  ALTER TABLE interactions ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE interactions ADD COLUMN mocked_calls TEXT;
  ALTER TABLE interactions ADD COLUMN agent_request_body BLOB;
  ALTER TABLE interactions ADD COLUMN agent_response_body BLOB;
  `,
  `
  CREATE TABLE mcp_exchanges (
    seq               INTEGER PRIMARY KEY,
    id                TEXT NOT NULL UNIQUE,
    session_id        TEXT NOT NULL,
    session_given     INTEGER NOT NULL,
    server            TEXT NOT NULL,
    method            TEXT NOT NULL,
    subject           TEXT,
    params            TEXT,
    result            TEXT,
    error             TEXT,
    is_error          INTEGER NOT NULL,
    request_key       TEXT NOT NULL,
    canonical_request TEXT NOT NULL,
    key_ordinal       INTEGER NOT NULL,
    started_at        INTEGER NOT NULL,
    total_ms          REAL NOT NULL,
    mock_set          TEXT
  );
  CREATE INDEX mcp_exchanges_by_key ON mcp_exchanges(server, request_key, key_ordinal);
  CREATE INDEX mcp_exchanges_by_start ON mcp_exchanges(started_at);
  `,
  // What an OTel MCP span names and a recording made before did not keep: null there.
  `
  ALTER TABLE mcp_exchanges ADD COLUMN request_id TEXT;
  ALTER TABLE mcp_exchanges ADD COLUMN transport TEXT;
  ALTER TABLE mcp_exchanges ADD COLUMN mcp_session_id TEXT;
  ALTER TABLE mcp_exchanges ADD COLUMN protocol_version TEXT;
  `,
  // What the server sent while it worked on a request (progress, requests to the client).
  `
  ALTER TABLE mcp_exchanges ADD COLUMN during TEXT;
  `,
];
