import { resolve } from 'node:path';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { NamedMockModule } from '../mocks/mock-modules.js';
import type { CodePolicy } from '../user-code/code-policy.js';

/**
 * Under `--no-code`, a proxy or a wrapped command whose mock files or shadow policies name a
 * module refuses to start, naming each: it has no cases to mark, and a run that answered some
 * calls with the refusal would pass or fail for a reason nobody asked for.
 */
export async function refuseCodeAtStart(
  config: Config,
  policy: CodePolicy,
  cwd: string,
): Promise<void> {
  if (policy.run) return;
  // Loaded only under --no-code: a proxy started without it never loads the suite machinery.
  const { mockModules } = await import('../mocks/mock-modules.js');
  const named: NamedMockModule[] = config.mocks.files.flatMap((file) =>
    mockModules(resolve(cwd, file)),
  );
  if (config.shadow.policies !== null) {
    const { loadPolicies } = await import('../live/load-policies.js');
    const { loadSuite } = await import('../suites/load-suite.js');
    const { caseCodeModules } = await import('../runner/case-code-modules.js');
    const policies = loadPolicies(config.shadow.policies, cwd);
    policies.policies.forEach((entry, index) => {
      if (entry.kind === 'judge' && entry.code !== undefined)
        named.push({ module: entry.code, where: `${policies.file}: policies[${index}].code` });
      // Ground-truth cases bring their suites' code judges along.
      if (entry.kind === 'cases')
        for (const file of entry.suites) {
          const suite = loadSuite(file, cwd);
          for (const testCase of suite.cases)
            named.push(
              ...caseCodeModules(suite, testCase).filter((module) => module.kind === 'judge'),
            );
        }
    });
  }
  if (named.length > 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `--no-code: refused to start, since these modules would run: ${[
        ...new Set(named.map((entry) => `${entry.module} (${entry.where})`)),
      ].join('; ')}`,
      'Drop --no-code to run them (they are code: review them like any test file), or leave out the files naming them.',
    );
}
