import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CalltapeError, errorCodes, isCalltapeError, type ErrorCode } from './errors.js';
import { packageRoot } from './package-root.js';

describe('the error catalogue', () => {
  it('gives every code a status, a type and an exit code, and docs/reference/errors.md documents each', () => {
    const page = readFileSync(join(packageRoot, 'docs/reference/errors.md'), 'utf8');
    for (const [code, entry] of Object.entries(errorCodes)) {
      const error = new CalltapeError(code as ErrorCode, 'm');
      expect([error.status, error.type, error.exitCode]).toEqual([
        entry.status,
        entry.type,
        entry.exitCode,
      ]);
      // Cells may be padded: Prettier aligns the columns of a Markdown table.
      expect(page).toMatch(
        new RegExp(
          `\\| +\`${code}\` +\\| +${entry.status} +\\| +\`${entry.type}\` +\\| +${entry.exitCode} +\\|`,
        ),
      );
    }
  });

  it('isCalltapeError knows its errors, also from another copy of the package, and nothing else', () => {
    expect(isCalltapeError(new CalltapeError('STORE_IO', 'disk full'))).toBe(true);
    const foreign = Object.assign(new Error('from a second install'), {
      name: 'CalltapeError',
      code: 'CASSETTE_MISS',
    });
    expect(isCalltapeError(foreign)).toBe(true);
    expect(
      isCalltapeError(Object.assign(new Error('x'), { name: 'CalltapeError', code: 'toString' })),
    ).toBe(false);
    expect(isCalltapeError(new Error('plain'))).toBe(false);
    expect(isCalltapeError({ name: 'CalltapeError', code: 'STORE_IO' })).toBe(false);
    expect(isCalltapeError(undefined)).toBe(false);
  });
});
