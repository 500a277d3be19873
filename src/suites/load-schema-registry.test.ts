import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { scoreCall } from '../scoring/score-call.js';
import { loadSchemaRegistry } from './load-schema-registry.js';

describe('loadSchemaRegistry', () => {
  it('reads schemas by tool name or an OpenAI tools array, and scoring validates against them', () => {
    const folder = temporaryFolder();
    const parameters = {
      type: 'object',
      properties: { amount: { type: 'number', minimum: 1 } },
      required: ['amount'],
    };
    writeFileSync(join(folder, 'map.json'), JSON.stringify({ pay: parameters }));
    writeFileSync(
      join(folder, 'tools.json'),
      JSON.stringify([{ type: 'function', function: { name: 'pay', parameters } }]),
    );
    for (const file of ['map.json', 'tools.json']) {
      const schemas = loadSchemaRegistry(file, folder);
      expect(schemas).toEqual({ pay: parameters });
      expect(
        scoreCall(
          { expected_tool: 'pay', arguments: { amount: 5 } },
          [{ name: 'pay', arguments: { amount: 0 } }],
          { schemas },
        ).reasons,
      ).toEqual(['schema_violation']);
    }
  });

  it('names the file and the entry that is wrong', () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'bad.json'), JSON.stringify({ pay: 'not a schema' }));
    expect(() => loadSchemaRegistry('bad.json', folder)).toThrow(
      `${join(folder, 'bad.json')}: /pay: expected a JSON Schema object`,
    );
    expect(() => loadSchemaRegistry('missing.json', folder)).toThrow(
      /missing\.json: cannot read the schema registry/,
    );
  });
});
