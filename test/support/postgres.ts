import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The throwaway cluster `scripts/with-postgres.sh` started (CI runs the suite inside it). */
export const postgresUrl = process.env['CALLTAPE_TEST_POSTGRES_URL'] || undefined;

/** CI sets CALLTAPE_REQUIRE_POSTGRES=1: there the PostgreSQL tests fail rather than skip. */
export const postgresRequired = process.env['CALLTAPE_REQUIRE_POSTGRES'] === '1';

/** Whether the PostgreSQL tests run: a cluster is there, or one is required (and its absence fails them). */
export const postgresTestsRun = postgresUrl !== undefined || postgresRequired;

/** Why they were skipped, for the test's name. */
export const postgresSkipNote = postgresTestsRun
  ? ''
  : ' (skipped: no CALLTAPE_TEST_POSTGRES_URL; run under scripts/with-postgres.sh)';

/** The cluster's URL; throws when it is required but missing. */
export function requirePostgresUrl(): string {
  if (postgresUrl === undefined)
    throw new Error(
      'CALLTAPE_REQUIRE_POSTGRES=1 but CALLTAPE_TEST_POSTGRES_URL is unset: run the tests under scripts/with-postgres.sh',
    );
  return postgresUrl;
}

/** A new empty database on the test cluster (its URL), so tests never see each other's rows. */
export async function freshPostgresDatabase(): Promise<string> {
  const url = new URL(requirePostgresUrl());
  const name = `calltape_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.toString();
}
