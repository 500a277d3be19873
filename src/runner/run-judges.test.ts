import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../package-root.js';
import { judgesRecordHint } from './run-judges.js';

describe('the missing judges cassette hint names recordings/bank-judges.sqlite, which an installed package lacks', () => {
  it('points at the example’s recorded judges only where they exist', () => {
    expect(judgesRecordHint(packageRoot)).toContain('recordings/bank-judges.sqlite');
    const installed = mkdtempSync(join(tmpdir(), 'calltape-installed-'));
    expect(judgesRecordHint(installed)).not.toContain('bank-judges');
    expect(judgesRecordHint(installed)).toContain('calltape judges compare … --mode record');
  });
});
