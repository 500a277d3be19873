import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CalltapeError } from './errors.js';
import { RunStore } from './runner/run-store.js';
import { isPostgresUrl, printableDatabase, redactDatabaseUrl } from './database-url.js';

describe('database locations', () => {
  it('takes postgres:// and postgresql:// URLs as PostgreSQL and anything else as a SQLite file', () => {
    expect(isPostgresUrl('postgres://db.internal/calltape')).toBe(true);
    expect(isPostgresUrl('PostgreSQL://u:p@h:5432/d')).toBe(true);
    expect(isPostgresUrl('recordings/calltape-runs.sqlite')).toBe(false);
    expect(isPostgresUrl('./postgres://x')).toBe(false);
  });

  it('prints a URL with its password replaced, in the authority and as a query parameter', () => {
    expect(printableDatabase('postgres://ci:hunter2@db:5432/runs')).toBe(
      'postgres://ci:***@db:5432/runs',
    );
    expect(printableDatabase('postgresql://db/runs?sslmode=require&password=hunter2')).toBe(
      'postgresql://db/runs?sslmode=require&password=***',
    );
    expect(printableDatabase('/tmp/runs.sqlite')).toBe('/tmp/runs.sqlite');
  });

  it('never prints the password, whatever it is', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9%!$&'()*+,;=._~-]{4,24}$/),
        fc.stringMatching(/^[a-z]{1,8}$/),
        (password, user) => {
          const url = `postgres://${user}:${password}@db.internal:5432/runs`;
          expect(printableDatabase(url)).not.toContain(`:${password}@`);
          expect(
            redactDatabaseUrl(`failed to reach ${url}: password ${password} rejected`, url),
          ).not.toContain(password);
        },
      ),
    );
  });

  it('names an unreachable PostgreSQL runs database without its password, as STORE_IO', () => {
    // Port 1 on loopback refuses at once.
    const url = 'postgres://ci:s3cret-pass@127.0.0.1:1/runs';
    let thrown: unknown;
    try {
      new RunStore(url).close();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CalltapeError);
    expect((thrown as CalltapeError).code).toBe('STORE_IO');
    expect((thrown as Error).message).toContain('postgres://ci:***@127.0.0.1:1/runs');
    expect((thrown as Error).message).not.toContain('s3cret');
  });
});
