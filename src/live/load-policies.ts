import { existsSync } from 'node:fs';
import { compileUserPattern } from '../scoring/match/user-pattern.js';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { configSchemaFile, schemaErrorText, schemaValidator } from '../config/schema-validator.js';
import { CalltapeError } from '../errors.js';
import { readDocument } from '../config/read-document.js';
import { outsideProject } from '../config/project-file.js';
import { loadSuite } from '../suites/load-suite.js';
import type { Suite } from '../scoring/suite-types.js';
import { parseDuration } from './duration.js';
import type { AlertSettings, ArgumentConstraint, Policies, Policy } from './policy-types.js';

export const policiesSchemaPath = configSchemaFile('policies.schema.json');
const schemaErrors = schemaValidator('policies.schema.json', ['test-case.schema.json']);

interface PoliciesFile {
  readonly sessions?: { readonly idle_timeout?: string; readonly max_open?: number };
  readonly judge?: {
    readonly model?: string;
    readonly embedding_model?: string;
    readonly api_key_env?: string;
  };
  readonly alerts?: {
    readonly webhook: string;
    readonly window?: string;
    readonly min_calls?: number;
    readonly cooldown?: string;
  };
  readonly policies: readonly Policy[];
}

/**
 * Loads a policies file (YAML or JSON) and checks everything that can be checked before traffic
 * arrives: the file against config/policies.schema.json, unique ids, regexes, judge modules and
 * suite files that exist, and sampling on the policies that cost a model call per evaluation
 * (LLM judges, semantic rules). Messages name the file, the policy and the field.
 */
export function loadPolicies(file: string, cwd: string): Policies {
  const path = resolve(cwd, file);
  const value = readDocument(path, 'policies file', cwd);
  const errors = schemaErrors(value);
  if (errors.length > 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      describeErrors(path, value, errors, !outsideProject(path, cwd)).join('\n'),
      `See ${policiesSchemaPath} for every field.`,
    );
  const parsed = value as PoliciesFile;
  const folder = dirname(path);
  const seen = new Set<string>();
  const suites: Suite[] = [];
  const policies = parsed.policies.map((policy, index): Policy => {
    const where = `${path}: policies[${index}] (${policy.id})`;
    if (seen.has(policy.id))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${where}: id: another policy is already named "${policy.id}"`,
      );
    seen.add(policy.id);
    switch (policy.kind) {
      case 'arguments':
        for (const [name, constraint] of Object.entries(policy.arguments))
          checkConstraint(constraint, `${where}: arguments.${name}`, policy.sample);
        return policy;
      case 'judge': {
        if ((policy.code === undefined) === (policy.rubric === undefined))
          throw new CalltapeError(
            'CONFIG_INVALID',
            `${where}: give exactly one of code (a judge module) or rubric (an LLM judge)`,
          );
        if (policy.rubric !== undefined && (policy.sample === undefined || policy.sample >= 1)) {
          throw new CalltapeError(
            'CONFIG_INVALID',
            `${where}: sample: an LLM judge asks a model for every session it judges; give a sampling rate below 1 (e.g. sample: 0.05)`,
          );
        }
        if (policy.code === undefined) return policy;
        const code = isAbsolute(policy.code) ? policy.code : resolve(folder, policy.code);
        if (!existsSync(code))
          throw new CalltapeError('CONFIG_INVALID', `${where}: code: no such file ${code}`);
        return { ...policy, code };
      }
      case 'cases': {
        const files = policy.suites.map((suite) =>
          isAbsolute(suite) ? suite : resolve(folder, suite),
        );
        for (const suiteFile of files) {
          try {
            suites.push(loadSuite(suiteFile, folder));
          } catch (error) {
            throw new CalltapeError(
              'CONFIG_INVALID',
              `${where}: suites: ${(error as Error).message}`,
            );
          }
        }
        return { ...policy, suites: files };
      }
      default:
        return policy;
    }
  });
  const duration = (text: string | undefined, fallback: number): number =>
    text === undefined ? fallback : (parseDuration(text) ?? fallback);
  const alerts: AlertSettings | undefined = parsed.alerts && {
    webhook: parsed.alerts.webhook,
    windowMs: duration(parsed.alerts.window, 600_000),
    minCalls: parsed.alerts.min_calls ?? 20,
    cooldownMs: duration(parsed.alerts.cooldown, 1_800_000),
  };
  return {
    file: path,
    sessionIdleMs: duration(parsed.sessions?.idle_timeout, 300_000),
    maxOpenSessions: parsed.sessions?.max_open ?? 10_000,
    policies,
    suites,
    judge: {
      model: parsed.judge?.model ?? 'gpt-4o-mini',
      apiKeyEnv: parsed.judge?.api_key_env,
      embeddingModel: parsed.judge?.embedding_model ?? 'text-embedding-3-small',
    },
    alerts,
  };
}

function checkConstraint(
  constraint: ArgumentConstraint,
  where: string,
  sample: number | undefined,
): void {
  const strategy =
    constraint.matching_strategy ??
    (constraint.any_of ? 'any_of' : constraint.pattern !== undefined ? 'regex' : undefined);
  if (
    strategy === undefined &&
    constraint.min === undefined &&
    constraint.max === undefined &&
    !constraint.required
  ) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${where}: constrains nothing; give min/max, any_of, pattern, a matching_strategy with a value, or required: true`,
    );
  }
  if (
    constraint.min !== undefined &&
    constraint.max !== undefined &&
    constraint.min > constraint.max
  )
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${where}: min ${constraint.min} is above max ${constraint.max}`,
    );
  if (constraint.pattern !== undefined) {
    try {
      compileUserPattern(constraint.pattern, constraint.flags ?? '');
    } catch (error) {
      throw new CalltapeError('CONFIG_INVALID', `${where}: pattern: ${(error as Error).message}`);
    }
  }
  const needsValue = strategy !== undefined && strategy !== 'any_of' && strategy !== 'regex';
  if (needsValue && constraint.value === undefined)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${where}: value: the ${strategy} matcher compares the argument with a value; give one`,
    );
  if (strategy === 'semantic' && (sample === undefined || sample >= 1)) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${where}: a semantic rule fetches embeddings for every call it scores; give the policy a sampling rate below 1 (e.g. sample: 0.1)`,
    );
  }
}

function describeErrors(
  path: string,
  value: unknown,
  errors: readonly ErrorObject[],
  quote: boolean,
): string[] {
  const policies = (value as { policies?: { id?: unknown }[] } | null)?.policies;
  // if/then branches report their own `if` failure too: only the branch errors say what is wrong.
  const relevant = errors.filter((error) => error.keyword !== 'if');
  return [
    ...new Set(
      relevant.map(
        (error) =>
          `${path}: ${schemaErrorText(error, 'policies', (index) => policies?.[index]?.id, {}, quote)}`,
      ),
    ),
  ];
}
