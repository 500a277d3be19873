import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { outsideProject } from '../config/project-file.js';
import { readDocument } from '../config/read-document.js';
import { configSchemaFile, schemaErrorText, schemaValidator } from '../config/schema-validator.js';
import { CalltapeError } from '../errors.js';
import type { Guidelines } from '../guidelines/guidelines.js';
import { guidelinesFromValue, loadGuidelines } from '../guidelines/load-guidelines.js';
import { loadSuite } from '../suites/load-suite.js';
import type { JudgeDefinition } from './judge-definition.js';

export const judgesSchemaPath = configSchemaFile('judges.schema.json');
const schemaErrors = schemaValidator('judges.schema.json');

interface JudgesDocument {
  readonly guidelines?: string | object;
  readonly judges: readonly {
    readonly name: string;
    readonly llm?: {
      readonly model: string;
      readonly provider?: 'openai' | 'anthropic';
      readonly rubric?: string;
      readonly template?: 'desired_behaviour';
      readonly temperature?: number;
      readonly samples?: number;
      readonly aggregate?: 'majority' | 'all' | 'any' | 'mean';
      readonly pass_threshold?: number;
      readonly confirm_on_fail?: boolean;
      readonly max_tokens?: number;
      readonly price?: { readonly input: number; readonly output: number };
    };
    readonly code?: { readonly module: string; readonly timeout_ms?: number };
    readonly check?: { readonly suite: string; readonly now?: string };
  }[];
}

/**
 * Reads a judges file (YAML or JSON) and checks all it can before any judge is asked: the
 * schema (an unknown field is named), unique names, guidelines for the desired-behaviour
 * template, modules and suites that exist. Errors name the file, the judge and the field.
 */
export function loadJudges(file: string, cwd: string): JudgeDefinition[] {
  const path = resolve(cwd, file);
  const value = readDocument(path, 'judges file', cwd);
  const quote = !outsideProject(path, cwd);
  const errors = schemaErrors(value);
  if (errors.length > 0) {
    const nameOf = (index: number): unknown => (value as JudgesDocument).judges[index]?.name;
    const lines = errors
      .filter((error) => error.keyword !== 'oneOf' || errors.length === 1)
      .map(
        (error) =>
          `${path}: ${schemaErrorText(error, 'judges', nameOf, { oneOf: 'give exactly one of llm, code or check (llm: exactly one of rubric or template)' }, quote)}`,
      );
    throw new CalltapeError(
      'CONFIG_INVALID',
      [...new Set(lines)].join('\n'),
      `See ${judgesSchemaPath} for every field.`,
    );
  }
  const document = value as JudgesDocument;
  const folder = dirname(path);
  let guidelines: Guidelines | undefined;
  const guidelinesNeeded = (where: string): Guidelines => {
    if (document.guidelines === undefined)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${where}: llm.template: desired_behaviour needs the file's guidelines (a file, or the should_use / should_not_use lists inline)`,
      );
    guidelines ??=
      typeof document.guidelines === 'string'
        ? loadGuidelines(document.guidelines, folder, cwd)
        : guidelinesFromValue(document.guidelines, `${path}: guidelines`, quote);
    return guidelines;
  };
  const names = new Set<string>();
  return document.judges.map((judge, index): JudgeDefinition => {
    const where = `${path}: judges[${index}] (${judge.name})`;
    if (names.has(judge.name))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${where}: name: another judge is already named "${judge.name}"`,
      );
    names.add(judge.name);
    if (judge.llm) {
      const llm = judge.llm;
      return {
        kind: 'llm',
        name: judge.name,
        model: llm.model,
        provider: llm.provider ?? 'openai',
        prompt:
          llm.rubric !== undefined
            ? { kind: 'rubric', rubric: llm.rubric }
            : { kind: 'desired_behaviour', guidelines: guidelinesNeeded(where) },
        temperature: llm.temperature ?? 0,
        samples: llm.samples ?? 1,
        aggregate: llm.aggregate ?? 'majority',
        passThreshold: llm.pass_threshold ?? 0.5,
        confirmOnFail: llm.confirm_on_fail === true,
        maxTokens: llm.max_tokens ?? 512,
        price: llm.price,
      };
    }
    if (judge.code) {
      const module = resolve(folder, judge.code.module);
      if (!existsSync(module))
        throw new CalltapeError('CONFIG_INVALID', `${where}: code.module: no such file ${module}`);
      return { kind: 'code', name: judge.name, module, timeoutMs: judge.code.timeout_ms };
    }
    const check = judge.check ?? { suite: '' };
    return {
      kind: 'check',
      name: judge.name,
      suite: loadSuite(resolve(folder, check.suite), folder),
      now: check.now ? new Date(check.now) : new Date(),
    };
  });
}
