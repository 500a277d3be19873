import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { parse as parseYaml } from 'yaml';
import { parseSampleSession } from '../cassette/sample-session.js';
import { CalltapeError } from '../errors.js';
import { nearestFile } from '../nearest-file.js';
import { configSchemaFile, givenValue, schemaValidator } from '../config/schema-validator.js';
import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { schemaRegistry } from './load-schema-registry.js';
import type { Price, RunConfig, Suite, SuiteCase } from '../scoring/suite-types.js';
import { unknownFieldHint } from './unknown-field-hint.js';
import { validateTestCase } from './validate-test-case.js';
import { oldFieldWarnings } from './old-field-names.js';
import { readJsonFile } from '../config/read-json-file.js';
import { outsideProject, parseDetail } from '../config/project-file.js';

export const suiteSchemaPath = configSchemaFile('suite.schema.json');

const schemaErrors = schemaValidator('suite.schema.json', ['test-case.schema.json']);

/**
 * Reads a suite file (YAML, JSON, or JSONL: a case per line, optionally a first line
 * `{"suite": {…settings}}`) and checks it against config/suite.schema.json and what a schema
 * cannot say (duplicate test ids, files that do not exist). Every error names the file, the case
 * (its test_id, else its position) and the field; they exit 2.
 */
export function loadSuite(file: string, cwd: string): Suite {
  const path = resolve(cwd, file);
  const folder = dirname(path);
  const raw = readSuiteFile(path, cwd);
  const quote = !outsideProject(path, cwd);
  const problems = describeErrors(path, raw, schemaErrors(raw), quote);
  if (problems.length > 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      problems.join('\n'),
      `See ${suiteSchemaPath} for every field.`,
    );
  const value = raw as RawSuite;
  const seen = new Map<string, number>();
  const cases = value.cases.map((entry, index): SuiteCase => {
    // The trajectory-check rules a schema cannot say (min above max, judge files) are checked per case.
    validateTestCase(entry, { file: path, index, quote });
    const id = entry.test_id ?? `case-${index + 1}`;
    for (const warning of oldFieldWarnings(entry, `${path}: case "${id}"`))
      process.stderr.write(`warning: ${warning}\n`);
    const earlier = seen.get(id);
    if (earlier !== undefined)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${path}: case "${id}": test_id: also used by case #${earlier + 1}; ids name sessions and report rows, so they must be unique`,
      );
    seen.set(id, index);
    const mocks = entry.mocks?.map((mock) =>
      existing(resolve(folder, mock), `${path}: case "${id}": mocks`),
    );
    return { ...entry, test_id: id, ...(mocks ? { mocks } : {}) } as SuiteCase;
  });
  requireOwnSampleSessions(path, seen);
  const suiteTools = toolsOf(value.tools, folder, `${path}: tools`);
  const runs: RunConfig[] = (value.runs ?? [{ name: 'default' }]).map((run, index) => {
    const tools =
      run.tools === undefined
        ? suiteTools
        : toolsOf(run.tools, folder, `${path}: runs[${index}].tools`);
    return {
      name: run.name,
      model: run.model ?? value.model,
      system: run.system ?? value.system,
      tools: tools.definitions,
      schemas: tools.schemas,
      price: run.price,
    };
  });
  const names = new Set<string>();
  for (const run of runs) {
    if (names.has(run.name))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${path}: runs: the name "${run.name}" is used twice`,
      );
    names.add(run.name);
  }
  const name = value.name ?? basename(path, extname(path));
  return {
    file: path,
    name,
    agent: value.agent && {
      command: value.agent.command,
      input: value.agent.input ?? 'arg',
      cwd: value.agent.cwd ? resolve(folder, value.agent.cwd) : cwd,
      timeoutMs: value.agent.timeout_ms ?? 120_000,
      env: value.agent.env ?? {},
    },
    runs,
    mocks: (value.mocks ?? []).map((mock) => existing(resolve(folder, mock), `${path}: mocks`)),
    // One rule for both: relative to the suite file, so a suite runs the same from any directory.
    cassette: resolve(folder, value.cassette ?? join('recordings', `${name}.sqlite`)),
    now: value.now === undefined ? undefined : new Date(value.now),
    checks: value.checks ?? {},
    defaults: value.defaults ?? {},
    gates: value.gates ?? {},
    repeats: value.repeats ?? 1,
    min_pass_rate: value.min_pass_rate ?? 1,
    // Drafts keep their ids (unique with the rest) but stay out of every run and gate until reviewed.
    cases: cases.filter((testCase) => testCase.review === undefined),
    drafts: cases.filter((testCase) => testCase.review !== undefined),
  };
}

interface RawSuite {
  readonly name?: string;
  readonly model?: string;
  readonly system?: string;
  readonly tools?: string | JsonValue[] | { [tool: string]: JsonValue };
  readonly mocks?: string[];
  readonly cassette?: string;
  readonly now?: string;
  readonly agent?: {
    command: string;
    input?: 'arg' | 'stdin' | 'env';
    cwd?: string;
    timeout_ms?: number;
    env?: Record<string, string>;
  };
  readonly runs?: {
    name: string;
    model?: string;
    system?: string;
    tools?: string | JsonValue[] | { [tool: string]: JsonValue };
    price?: Price;
  }[];
  readonly checks?: Suite['checks'];
  readonly defaults?: Suite['defaults'];
  readonly gates?: Suite['gates'];
  readonly repeats?: number;
  readonly min_pass_rate?: number;
  readonly cases: (SuiteCase & { test_id?: string })[];
}

function readSuiteFile(path: string, cwd: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const near =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? nearestFile(path, ['.yaml', '.yml', '.json'])
        : undefined;
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${path}: cannot read the suite: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      near === undefined ? undefined : `Did you mean ${relative(process.cwd(), near) || near}?`,
    );
  }
  const extension = extname(path).toLowerCase();
  try {
    if (extension === '.jsonl') {
      const lines = text
        .split('\n')
        .map((line, index) => [line.trim(), index + 1] as const)
        .filter(([line]) => line !== '');
      const parsed = lines.map(([line, number]) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch (error) {
          throw new Error(`line ${number}: ${(error as Error).message}`);
        }
      });
      const [first] = parsed;
      const settings =
        first && Object.keys(first).length === 1 && typeof first['suite'] === 'object'
          ? (first['suite'] as Record<string, unknown>)
          : undefined;
      return { ...settings, cases: settings ? parsed.slice(1) : parsed };
    }
    return extension === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${path}: not valid ${extension === '.jsonl' ? 'JSON lines' : extension === '.json' ? 'JSON' : 'YAML'}: ${parseDetail(error, path, cwd)}`,
    );
  }
}

/** Tool definitions to send, and parameter schemas to score with, from inline definitions or a file. */
function toolsOf(
  value: RawSuite['tools'],
  folder: string,
  where: string,
): { definitions: JsonValue[]; schemas: { [tool: string]: JsonSchema } } {
  if (value === undefined) return { definitions: [], schemas: {} };
  let tools: JsonValue = value as JsonValue;
  let at = where;
  if (typeof value === 'string') {
    const path = existing(resolve(folder, value), where);
    at = path;
    tools = readJsonFile(path, 'the tools');
  }
  const schemas = schemaRegistry(tools, at);
  const definitions = Array.isArray(tools)
    ? tools
    : Object.entries(schemas).map(([name, parameters]): JsonValue => ({
        type: 'function',
        function: { name, parameters },
      }));
  return { definitions, schemas };
}

function existing(path: string, where: string): string {
  if (!existsSync(path))
    throw new CalltapeError('CONFIG_INVALID', `${where}: no such file ${path}`);
  return isAbsolute(path) ? path : resolve(path);
}

/** Messages naming the case (by test_id or position) and the field; alternatives report their deepest branch only. */
function describeErrors(
  path: string,
  value: unknown,
  errors: readonly ErrorObject[],
  quote: boolean,
): string[] {
  if (errors.length === 0) return [];
  const depth = (error: ErrorObject): number =>
    error.instancePath.split('/').length +
    (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties' ? 1 : 0);
  const cases = (value as { cases?: { test_id?: unknown }[] } | null)?.cases;
  // Errors are grouped by case, each case reporting its deepest ones.
  const byCase = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const parts = error.instancePath.split('/');
    const group = parts[1] === 'cases' && parts[2] !== undefined ? `case:${parts[2]}` : 'suite';
    byCase.set(group, [...(byCase.get(group) ?? []), error]);
  }
  const lines: string[] = [];
  for (const group of byCase.values()) {
    const concrete = group.filter(
      (error) =>
        error.keyword !== 'anyOf' && error.keyword !== 'oneOf' && error.keyword !== 'allOf',
    );
    const candidates = concrete.length > 0 ? concrete : group;
    const deepest = Math.max(...candidates.map(depth));
    for (const error of candidates.filter((candidate) => depth(candidate) === deepest)) {
      const parts = error.instancePath.split('/').slice(1);
      const index = parts[0] === 'cases' && parts[1] !== undefined ? Number(parts[1]) : undefined;
      const id = index !== undefined ? cases?.[index]?.test_id : undefined;
      const where =
        index !== undefined ? `case ${typeof id === 'string' ? `"${id}"` : `#${index + 1}`}` : '';
      const rest = (index !== undefined ? parts.slice(2) : parts)
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce(
          (field, part) =>
            /^\d+$/.test(part) ? `${field}[${part}]` : field === '' ? part : `${field}.${part}`,
          '',
        );
      const params = error.params as Record<string, unknown>;
      const extra =
        error.keyword === 'additionalProperties'
          ? String(params['additionalProperty'])
          : error.keyword === 'unevaluatedProperties'
            ? String(params['unevaluatedProperty'])
            : undefined;
      const field = extra !== undefined ? [rest, extra].filter(Boolean).join('.') : rest;
      const what =
        extra !== undefined
          ? `unknown field${unknownFieldHint(error, extra)}`
          : error.keyword === 'required' && index !== undefined && rest === ''
            ? 'needs expected_tool, expected_calls, expect, never, judge or turns'
            : error.keyword === 'enum'
              ? `must be one of ${JSON.stringify(params['allowedValues'])}${givenValue(error.data, quote)}`
              : `${error.message ?? 'is invalid'}${error.keyword === 'required' ? '' : givenValue(error.data, quote)}`;
      lines.push(`${path}: ${[where, field].filter(Boolean).join(': ') || '(suite)'}: ${what}`);
    }
  }
  return [...new Set(lines)];
}

/**
 * A case id `refund#2` beside a case `refund` names the session sample 2 of `refund` runs under
 * when it is repeated: the two would share recordings, and recording one would drop the other's.
 */
function requireOwnSampleSessions(path: string, ids: ReadonlyMap<string, number>): void {
  for (const [id, index] of ids) {
    const { caseSession, sample } = parseSampleSession(id);
    if (sample > 1 && ids.has(caseSession))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${path}: case "${id}" (#${index + 1}): test_id: names the session of sample ${sample} of case "${caseSession}" (repeats run sample k under <test_id>#k), so the two would share recordings`,
        'Rename it, e.g. without the #.',
      );
  }
}
