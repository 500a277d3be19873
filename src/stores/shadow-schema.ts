/**
 * The shadow-scoring database's tables and indexes, created on open (`IF NOT EXISTS`, so a
 * database made by an older calltape gets what was added since, such as the failure indexes).
 */
export const shadowSchema = `
CREATE TABLE IF NOT EXISTS calls (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  interaction_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  wire TEXT NOT NULL,
  model TEXT NOT NULL,
  tool TEXT NOT NULL,
  call_index INTEGER NOT NULL,
  mocked INTEGER NOT NULL,
  verdict TEXT NOT NULL,
  score REAL NOT NULL,
  arguments TEXT NOT NULL,
  evaluated TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS calls_at ON calls (at);
CREATE INDEX IF NOT EXISTS calls_session ON calls (session_id);
CREATE TABLE IF NOT EXISTS failures (
  call_id INTEGER,
  session_row INTEGER,
  at INTEGER NOT NULL,
  session_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  model TEXT NOT NULL,
  policy TEXT NOT NULL,
  reason TEXT NOT NULL,
  path TEXT,
  expected TEXT,
  actual TEXT,
  message TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS failures_at ON failures (at);
-- Retention deletes a call's or session's failures by its row id: without these, once a table
-- reached max_rows every write scanned every failure.
CREATE INDEX IF NOT EXISTS failures_call ON failures (call_id) WHERE call_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS failures_session_row ON failures (session_row) WHERE session_row IS NOT NULL;
CREATE TABLE IF NOT EXISTS sessions (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  case_id TEXT,
  started_at INTEGER NOT NULL,
  ended_at INTEGER NOT NULL,
  model TEXT NOT NULL,
  verdict TEXT NOT NULL,
  score REAL NOT NULL,
  turns INTEGER NOT NULL,
  calls INTEGER NOT NULL,
  evaluated TEXT NOT NULL,
  trajectory TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_ended ON sessions (ended_at);
CREATE TABLE IF NOT EXISTS policy_counts (
  minute INTEGER NOT NULL,
  policy TEXT NOT NULL,
  tool TEXT NOT NULL,
  model TEXT NOT NULL,
  evaluated INTEGER NOT NULL,
  failed INTEGER NOT NULL,
  PRIMARY KEY (minute, policy, tool, model)
);
`;
