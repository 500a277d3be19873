import { dirname, isAbsolute, resolve } from 'node:path';
import { CalltapeError } from '../errors.js';
import { mockModules } from '../mocks/mock-modules.js';
import type { JudgeSpec, TrajectoryCase } from '../scoring/trajectory/types.js';
import type { Suite, SuiteCase } from '../scoring/suite-types.js';
import { codeRefusal, type CodePolicy } from '../user-code/code-policy.js';

/** A module a case runs: a code judge, or a mock module of a set in force for the case. */
export interface CaseCodeModule {
  /** Absolute path of the module. */
  readonly module: string;
  /** What names it: `judge[0].code` of the case (or the suite's checks), or the mock file and mock. */
  readonly where: string;
  /** The file naming it, whose project root it must lie in. */
  readonly namedIn: string;
  /** A code judge runs when the case is scored (`calltape score` too); a mock module only while it runs. */
  readonly kind: 'judge' | 'mock';
}

/**
 * Every module a case may load: its code judges (the suite's checks and its own) and the modules
 * of the mock sets in force (the suite's and the case's). What `--no-code` refuses the case for,
 * and what must lie inside the project root.
 */
export function caseCodeModules(suite: Suite, testCase: SuiteCase): readonly CaseCodeModule[] {
  const folder = dirname(suite.file);
  const judgeModules = (judge: TrajectoryCase['judge'], field: string): CaseCodeModule[] => {
    const specs: readonly JudgeSpec[] =
      judge === undefined ? [] : Array.isArray(judge) ? judge : [judge as JudgeSpec];
    return specs.flatMap((spec, index) =>
      'code' in spec
        ? [
            {
              module: isAbsolute(spec.code) ? spec.code : resolve(folder, spec.code),
              where: `${suite.file}: ${field}${Array.isArray(judge) ? `[${index}]` : ''}.code`,
              namedIn: suite.file,
              kind: 'judge' as const,
            },
          ]
        : [],
    );
  };
  const mockFiles = [...new Set([...suite.mocks, ...(testCase.mocks ?? [])])];
  return [
    ...judgeModules(suite.checks.judge, 'checks.judge'),
    ...judgeModules(testCase.judge, `case "${testCase.test_id}": judge`),
    ...mockFiles.flatMap((file) =>
      mockModules(file).map((named) => ({ ...named, namedIn: file, kind: 'mock' as const })),
    ),
  ];
}

/**
 * The modules of each case (of the kinds asked for), having refused, before anything runs, one
 * that lies outside the project root of the file naming it (unless the policy allows it): a
 * configuration error naming the field.
 */
export function requireModulesInProject(
  suite: Suite,
  policy: CodePolicy,
  kinds: readonly CaseCodeModule['kind'][] = ['judge', 'mock'],
): ReadonlyMap<SuiteCase, readonly CaseCodeModule[]> {
  const byCase = new Map(
    suite.cases.map((testCase) => [
      testCase,
      caseCodeModules(suite, testCase).filter((named) => kinds.includes(named.kind)),
    ]),
  );
  for (const modules of byCase.values())
    for (const named of modules) {
      const refused = codeRefusal(named.module, dirname(named.namedIn), { ...policy, run: true });
      if (refused !== undefined)
        throw new CalltapeError('CONFIG_INVALID', `${named.where}: ${refused}`);
    }
  return byCase;
}

/** Under `--no-code`: why a case that needs modules cannot run (each module and where it is named); undefined when it needs none. */
export function noCodeRefusal(modules: readonly CaseCodeModule[]): string | undefined {
  if (modules.length === 0) return undefined;
  return `--no-code: this case needs code, which was refused: ${modules
    .map((named) => `${named.module} (${named.where})`)
    .join('; ')}`;
}
