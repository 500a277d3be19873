import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../package-root.js';

// strictRequired is off: the top-level anyOf names properties defined beside it, which is valid JSON Schema.
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats.default(ajv);
const validate = ajv.compile(
  JSON.parse(readFileSync(join(packageRoot, 'config/test-case.schema.json'), 'utf8')) as object,
);

describe('config/test-case.schema.json', () => {
  it('accepts the classic record verbatim and the extended forms', () => {
    const classic = {
      test_id: 'TC-042',
      prompt: "Transfer $150 to John Doe's savings account with the memo 'rent'",
      expected_tool: 'execute_transfer',
      arguments: {
        amount: 150.0,
        recipient_name: 'John Doe',
        account_type: 'savings',
        memo: 'rent',
      },
      rules: {
        amount: { matching_strategy: 'exact' },
        recipient_name: { matching_strategy: 'fuzzy', threshold: 0.85 },
        memo: { matching_strategy: 'ignore_case' },
      },
    };
    expect(validate(classic), JSON.stringify(validate.errors)).toBe(true);
    const extended = {
      test_id: 'TC-043',
      expected_calls: [
        {
          expected_tool: ['get_weather', 'weather_now'],
          arguments: { city: 'Paris' },
          rules: {
            unit: { any_of: ['celsius', { $omitted: true }] },
            'items[].sku': { matching_strategy: 'ignore_case', weight: 2, critical: true },
          },
        },
      ],
      extra_arguments: 'penalize',
      multiple_calls: 'best',
      pass_threshold: 0.8,
    };
    expect(validate(extended), JSON.stringify(validate.errors)).toBe(true);
  });

  it('rejects unknown strategies and rule fields', () => {
    expect(validate({ expected_tool: 't', rules: { a: { matching_strategy: 'similar' } } })).toBe(
      false,
    );
    expect(validate({ expected_tool: 't', rules: { a: { treshold: 0.9 } } })).toBe(false);
    expect(validate({ prompt: 'no expectation' })).toBe(false);
  });
});
