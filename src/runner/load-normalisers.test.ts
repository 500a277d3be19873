import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { scoreCall } from '../scoring/score-call.js';
import { loadNormalisers } from './load-normalisers.js';

describe('loadNormalisers', () => {
  it('turns every exported function into a normaliser a rule can name', async () => {
    const folder = temporaryFolder();
    writeFileSync(
      join(folder, 'skus.mjs'),
      "export function sku(value) { return typeof value === 'string' ? value.replace(/-0+/, '-').toUpperCase() : value; }\nexport default (value) => value;\n",
    );
    const normalisers = await loadNormalisers(['skus.mjs'], folder);
    expect(Object.keys(normalisers).sort()).toEqual(['sku', 'skus']);
    const result = scoreCall(
      { expected_tool: 't', arguments: { sku: 'AB-0012' }, rules: { sku: { normalise: ['sku'] } } },
      [{ name: 't', arguments: { sku: 'ab-12' } }],
      { normalisers },
    );
    expect(result.is_correct).toBe(true);
  });

  it('names the file when a module cannot be used', async () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'empty.mjs'), 'export const notAFunction = 1;\n');
    await expect(loadNormalisers(['empty.mjs'], folder)).rejects.toThrow(
      `${join(folder, 'empty.mjs')}: exports no normaliser function`,
    );
    await expect(loadNormalisers(['missing.mjs'], folder)).rejects.toThrow(
      /missing\.mjs: cannot load the normaliser module/,
    );
  });
});
