import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configValidatorSource } from '../scripts/config-validator-source.js';
import { packageRoot } from '../src/package-root.js';

describe('the precompiled configuration validator', () => {
  it('src/config/proxy-config-validator.generated.ts is what config/proxy.config.schema.json compiles to (run `npm run config:validator` when this fails)', () => {
    expect(
      readFileSync(join(packageRoot, 'src/config/proxy-config-validator.generated.ts'), 'utf8'),
    ).toBe(configValidatorSource());
  });
});
