import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configReference } from '../scripts/config-reference.js';
import { renderSchemaReference } from '../src/config/schema-reference.js';
import { packageRoot } from '../src/package-root.js';

describe('the configuration reference', () => {
  it('docs/reference/configuration.md is what config/*.schema.json generate (run `npm run docs:config` when this fails)', () => {
    expect(readFileSync(join(packageRoot, 'docs/reference/configuration.md'), 'utf8')).toBe(
      configReference(),
    );
  });

  it('flattens nested fields, lists enums, defaults and env variables, and links definitions', () => {
    const text = renderSchemaReference([
      {
        file: 'x.schema.json',
        env: new Map([['mode', 'X_MODE']]),
        schema: {
          title: 'X',
          required: ['mode'],
          properties: {
            mode: { enum: ['a', 'b'], default: 'a', description: 'Which |one|.' },
            nested: { type: 'object', properties: { deep: { type: 'integer' } } },
            list: { type: 'array', items: { $ref: '#/$defs/item' } },
          },
          $defs: { item: { description: 'An item.', properties: { name: { type: 'string' } } } },
        },
      },
    ]);
    expect(text).toContain(
      '| `mode` (required) | `"a"` \\| `"b"` | `"a"` | `X_MODE` | Which \\|one\\|. |',
    );
    expect(text).toContain('| `nested.deep` | integer |');
    expect(text).toContain('| `list` | array of [item](#xschemajson--item) |');
    expect(text).toContain('### x.schema.json · `item`');
  });
});
