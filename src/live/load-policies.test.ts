import { writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CalltapeError } from '../errors.js';
import { loadPolicies } from './load-policies.js';

const folder = mkdtempSync(join(tmpdir(), 'calltape-policies-'));
const write = (text: string, name = 'policies.yaml'): string => {
  const file = join(folder, name);
  writeFileSync(file, text);
  return file;
};
const problem = (text: string): string => {
  const file = write(text);
  try {
    loadPolicies(file, folder);
  } catch (error) {
    expect(error).toBeInstanceOf(CalltapeError);
    expect((error as CalltapeError).code).toBe('CONFIG_INVALID');
    return (error as Error).message.replaceAll(file, 'FILE');
  }
  throw new Error('expected the policies to be refused');
};

describe('loadPolicies', () => {
  it('loads policies with their defaults and resolves durations and paths', () => {
    writeFileSync(join(folder, 'judge.mjs'), 'export function judge() { return { pass: true }; }');
    const policies = loadPolicies(
      write(
        `sessions: { idle_timeout: 2m }\nalerts: { webhook: 'https://hooks.example.com/x', window: 5m }\npolicies:\n  - { id: schema, kind: schema, threshold: 0.95 }\n  - { id: code, kind: judge, code: ./judge.mjs }\n`,
      ),
      folder,
    );
    expect(policies.sessionIdleMs).toBe(120_000);
    expect(policies.alerts).toEqual({
      webhook: 'https://hooks.example.com/x',
      windowMs: 300_000,
      minCalls: 20,
      cooldownMs: 1_800_000,
    });
    expect(policies.policies[1]).toEqual({
      id: 'code',
      kind: 'judge',
      code: join(folder, 'judge.mjs'),
    });
    expect(policies.judge).toEqual({
      model: 'gpt-4o-mini',
      apiKeyEnv: undefined,
      embeddingModel: 'text-embedding-3-small',
    });
  });

  it('names the file, the policy and the field of every mistake', () => {
    expect(
      problem(
        'policies:\n  - { id: a, kind: arguments, tool: t, arguments: { amount: { max: lots } } }\n',
      ),
    ).toBe('FILE: policies[0] (a): arguments.amount.max: must be number (got "lots")');
    expect(problem('policies:\n  - { id: a, kind: schema, tool: t }\n')).toBe(
      'FILE: policies[0] (a): tool: unknown field',
    );
    expect(problem('policies:\n  - { id: a, kind: nonsense }\n')).toContain(
      'FILE: policies[0] (a): kind: must be one of',
    );
    // The value given is echoed beside what was expected.
    expect(problem('policies:\n  - { id: a, kind: shema }\n')).toBe(
      'FILE: policies[0] (a): kind: must be one of ["schema","arguments","never","allow","steps","cases","judge"] (got "shema")',
    );
    expect(
      problem('policies:\n  - { id: a, kind: schema }\n  - { id: a, kind: allow, tools: [x] }\n'),
    ).toBe('FILE: policies[1] (a): id: another policy is already named "a"');
    expect(
      problem(
        'policies:\n  - { id: a, kind: arguments, tool: t, arguments: { x: { pattern: "(" } } }\n',
      ),
    ).toContain('FILE: policies[0] (a): arguments.x.pattern');
    expect(
      problem('policies:\n  - { id: a, kind: arguments, tool: t, arguments: { x: {} } }\n'),
    ).toBe(
      'FILE: policies[0] (a): arguments.x: constrains nothing; give min/max, any_of, pattern, a matching_strategy with a value, or required: true',
    );
    expect(problem('policies:\n  - { id: a, kind: judge, code: ./missing.mjs }\n')).toBe(
      `FILE: policies[0] (a): code: no such file ${join(folder, 'missing.mjs')}`,
    );
    expect(problem('policies:\n  - { id: a, kind: cases, suites: [./missing.yaml] }\n')).toContain(
      'FILE: policies[0] (a): suites:',
    );
    expect(problem('policies: [\n')).toContain('FILE: cannot read the policies file');
  });

  it('refuses LLM judges and semantic rules without a sampling rate below 1', () => {
    expect(problem('policies:\n  - { id: tone, kind: judge, rubric: "Polite?" }\n')).toContain(
      'sample: an LLM judge asks a model for every session',
    );
    expect(
      problem('policies:\n  - { id: tone, kind: judge, rubric: "Polite?", sample: 1 }\n'),
    ).toContain('sample: an LLM judge');
    expect(
      problem(
        'policies:\n  - { id: memo, kind: arguments, tool: t, arguments: { memo: { matching_strategy: semantic, value: "rent" } } }\n',
      ),
    ).toContain('arguments.memo: a semantic rule fetches embeddings');
    const file = write(
      'policies:\n  - { id: tone, kind: judge, rubric: "Polite?", sample: 0.05 }\n  - { id: memo, kind: arguments, tool: t, sample: 0.1, arguments: { memo: { matching_strategy: semantic, value: "rent" } } }\n',
    );
    expect(loadPolicies(file, folder).policies).toHaveLength(2);
  });
});

describe('the shipped example policies', () => {
  it('load', async () => {
    const { packageRoot } = await import('../package-root.js');
    const policies = loadPolicies(join(packageRoot, 'config/policies/bank.yaml'), packageRoot);
    expect(policies.policies.map((policy) => policy.id)).toEqual([
      'valid-arguments',
      'transfer-limits',
      'known-tools',
      'no-account-closure',
      'step-budget',
      'ground-truth',
    ]);
    expect(policies.suites[0]?.cases.length).toBeGreaterThan(0);
  });
});
