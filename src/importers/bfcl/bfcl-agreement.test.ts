import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { temporaryFolder } from '../../../test/support/test-proxy.js';
import { scoreCase, type CaseRun } from '../../scoring/score-case.js';
import type { Suite } from '../../scoring/suite-types.js';
import { loadSuite } from '../../suites/load-suite.js';
import type { Trajectory, TrajectoryCall } from '../../trace/trajectory.js';
import type { SourceFile } from '../import-types.js';
import { importerOf } from '../importers.js';

/**
 * BFCL's own AST checker's verdicts on model outputs generated for a sample of each category
 * (src/importers/__fixtures__/bfcl/README.md says how they were made), against the verdicts
 * `calltape test` gives the imported suite for the same outputs in direct mode.
 */
const fixtures = join(import.meta.dirname, '..', '__fixtures__', 'bfcl');

/** One model output and BFCL's verdict on it. */
interface Verdict {
  readonly id: string;
  readonly category: string;
  readonly output: number;
  readonly kind: string;
  readonly calls: readonly { readonly name: string; readonly arguments: string }[];
  readonly valid: boolean;
  readonly error: string;
}

const verdicts: readonly Verdict[] = gunzipSync(
  readFileSync(join(fixtures, 'bfcl-verdicts.jsonl.gz')),
)
  .toString('utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line) as Verdict);

/**
 * Where calltape and BFCL disagree, by output (`<question id>#<output>`), and why: each reason is
 * explained in docs/guides/import.md under the phrase given here.
 */
const knownDisagreements = JSON.parse(
  readFileSync(join(fixtures, 'known-disagreements.json'), 'utf8'),
) as { readonly [output: string]: string };
const reasons = new Map([
  ['coercion', 'reads a number, a boolean or a list written as text'],
  ['json-number', 'cannot tell `5.0` from `5`'],
  ['greedy-pairing', 'pairs parallel calls greedily'],
  ['answer-lacks-required', 'leaves out a required parameter'],
]);

const read = (path: string): SourceFile => ({
  path,
  text: readFileSync(join(fixtures, path), 'utf8'),
});

/** The category imported as a user would (answers found beside it), written and loaded as `calltape test` loads it. */
function importedSuite(category: string): Suite {
  const bfcl = importerOf('bfcl');
  if (!bfcl) throw new Error('the bfcl importer is registered');
  const file = `BFCL_v4_${category}.json`;
  const { suite } = bfcl.convert(read(file), new Map(), (path) => read(path));
  const folder = temporaryFolder();
  writeFileSync(
    join(folder, 'suite.yaml'),
    toYaml(suite, { lineWidth: 0, aliasDuplicateObjects: false }),
  );
  return loadSuite(join(folder, 'suite.yaml'), folder);
}

/** The model's answer as the runner reads it: one round holding the recorded calls, arguments as the model wrote them. */
function run(session: string, calls: Verdict['calls']): CaseRun {
  const made = calls.map((call, index): TrajectoryCall => ({
    id: `call_${index}`,
    name: call.name,
    argumentsRaw: call.arguments,
    arguments: { ok: true, value: JSON.parse(call.arguments) as never },
    complete: true,
    turn: 0,
    index,
    step: index,
    result: undefined,
    mocked: false,
  }));
  const trajectory: Trajectory = {
    sessionId: session,
    turns: [
      {
        index: 0,
        interactionId: 'i0',
        startedAt: 0,
        status: 'complete',
        text: '',
        finishReason: undefined,
        calls: made,
      },
    ],
    calls: made,
    finalText: '',
    counts: {
      rounds: 1,
      calls: made.length,
      byTool: Object.fromEntries(made.map((call) => [call.name, 1])),
    },
  };
  return {
    session,
    trajectory,
    interactions: [],
    error: null,
    durationMs: 0,
    agent: null,
    problems: [],
  };
}

describe("calltape import bfcl agrees with BFCL's own AST checker", () => {
  const categories = [...new Set(verdicts.map((verdict) => verdict.category))];
  const disagreements = new Map<string, string>();
  let compared = 0;

  it.each(categories)('%s', async (category) => {
    const suite = importedSuite(category);
    const runConfig = suite.runs[0];
    if (!runConfig) throw new Error('a run');
    for (const verdict of verdicts.filter((item) => item.category === category)) {
      const index = suite.cases.findIndex((item) => item.test_id === verdict.id);
      const testCase = suite.cases[index];
      expect(testCase, verdict.id).toBeDefined();
      if (!testCase) continue;
      const result = await scoreCase(
        suite,
        runConfig,
        testCase,
        index,
        run(`${verdict.id}#${verdict.output}`, verdict.calls),
        { now: new Date(0), judges: {} },
      );
      compared++;
      const passed = result.status === 'pass';
      if (passed !== verdict.valid)
        disagreements.set(
          `${verdict.id}#${verdict.output}`,
          `${verdict.kind}: BFCL ${verdict.valid ? 'pass' : `fail (${verdict.error})`}, calltape ${result.status}: ${result.problems.join('; ')}`,
        );
    }
  });

  it('disagrees only on the outputs listed, each for a reason the import guide gives', () => {
    expect(compared).toBe(verdicts.length);
    const unexplained = [...disagreements].filter(
      ([key]) => !Object.hasOwn(knownDisagreements, key),
    );
    expect(unexplained).toEqual([]);
    const gone = Object.keys(knownDisagreements).filter((key) => !disagreements.has(key));
    expect(gone).toEqual([]);
    const guide = readFileSync(
      join(import.meta.dirname, '..', '..', '..', 'docs', 'guides', 'import.md'),
      'utf8',
    );
    for (const code of new Set(Object.values(knownDisagreements)))
      expect(guide, code).toContain(reasons.get(code) ?? `an explained reason for ${code}`);
    // The figure the guide reports.
    expect(`${verdicts.length - disagreements.size} of ${verdicts.length}`).toBe('2443 of 2477');
  });
});
