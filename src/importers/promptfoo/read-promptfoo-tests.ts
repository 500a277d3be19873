import { CalltapeError } from '../../errors.js';
import type { JsonValue } from '../../trace/trace.js';
import type { ReadNamedFile } from '../import-types.js';
import { testFromCsvRow } from './read-csv-test.js';
import {
  extensionOf,
  includePath,
  isGlob,
  parseCsvRows,
  parseDocument,
  parseJsonLines,
  readInclude,
} from './read-include.js';

/** One promptfoo assertion as written (or as a CSV `__expected` cell spells it). */
export interface PromptfooAssertion {
  /** Where: file and path (`tests.csv: row 2 __expected1`). */
  readonly where: string;
  /** The type without `not-`. */
  readonly type: string;
  readonly inverse: boolean;
  readonly value: JsonValue | undefined;
  /** The assertion's own `transform`, else the test's `options.transform`. */
  readonly transform: string | undefined;
  readonly threshold: number | undefined;
  readonly weight: number | undefined;
  readonly metric: string | undefined;
}

/** One promptfoo test after `defaultTest` is merged in and its vars expanded. */
export interface PromptfooTest {
  readonly where: string;
  readonly description: string | undefined;
  readonly vars: ReadonlyMap<string, JsonValue>;
  readonly assert: readonly PromptfooAssertion[];
  readonly threshold: number | undefined;
  /** Fields promptfoo reads that calltape has no counterpart for (`provider`, `options.prefix`, …). */
  readonly unsupported: readonly string[];
}

/** A test that could not be read as a whole (a glob include, a var file that is code): why. */
export interface SkippedTest {
  readonly where: string;
  readonly why: string;
}

type Raw = { readonly [key: string]: JsonValue };

const testKeys = new Set(['vars', 'assert', 'description', 'options', 'threshold', 'metadata']);
/** Test options that change nothing calltape scores (the grading provider, caching, …). */
const inertOptions = new Set(['provider', 'rubricPrompt', 'disableVarExpansion', 'cache']);

/**
 * The tests of a promptfoo config, with `defaultTest` merged in the way promptfoo's evaluator
 * merges it (src/evaluator.ts, promptfoo commit 68f0cde): `vars` `{...defaultTest.vars,
 * ...test.vars}`, `assert` the default's first then the test's, `threshold` the test's `??` the
 * default's, `options` `{...defaultTest.options, ...test.options}`. A var holding a list expands
 * into one test per combination, as promptfoo's generateVarCombinations does.
 */
export function readPromptfooTests(
  config: Raw,
  file: string,
  read: ReadNamedFile | undefined,
): { tests: PromptfooTest[]; skipped: SkippedTest[] } {
  const skipped: SkippedTest[] = [];
  const defaults = readDefaultTest(config['defaultTest'], `${file}: defaultTest`, read);
  const raws = testEntries(config['tests'], `${file}: tests`, read, skipped);
  const tests: PromptfooTest[] = [];
  for (const { raw, where } of raws) {
    const merged = mergeDefault(defaults, raw, where, file);
    const vars = readVars(merged.vars, `${where}.vars`, read);
    if (typeof vars === 'string') {
      skipped.push({ where, why: vars });
      continue;
    }
    for (const combination of combinations(vars, where))
      tests.push({ ...merged.test, vars: combination });
  }
  return { tests, skipped };
}

function readDefaultTest(
  value: JsonValue | undefined,
  where: string,
  read: ReadNamedFile | undefined,
): Raw {
  if (value === undefined || value === null) return {};
  if (typeof value === 'string') {
    const path = includePath(value);
    if (path === undefined)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${where}: must be a test object or a file:// reference`,
      );
    const included = readInclude(path, where, read);
    return asObject(parseDocument(included), included.path);
  }
  return asObject(value, where);
}

function testEntries(
  value: JsonValue | undefined,
  where: string,
  read: ReadNamedFile | undefined,
  skipped: SkippedTest[],
): { raw: Raw; where: string }[] {
  if (value === undefined || value === null) return [];
  const entries = Array.isArray(value) ? value : [value];
  return entries.flatMap((entry, index) => {
    const at = Array.isArray(value) ? `${where}[${index}]` : where;
    if (typeof entry !== 'string') return [{ raw: asObject(entry, at), where: at }];
    const path = includePath(entry);
    if (path === undefined)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${at}: a test is an object or a file:// reference, not "${entry.slice(0, 80)}"`,
      );
    if (isGlob(path)) {
      skipped.push({
        where: at,
        why: `file://${path} is a glob; calltape reads named files only (list them one by one)`,
      });
      return [];
    }
    return testsInFile(readInclude(path, at, read));
  });
}

function testsInFile(file: { path: string; text: string }): { raw: Raw; where: string }[] {
  switch (extensionOf(file.path)) {
    case 'csv':
      return parseCsvRows(file).map((row, index) => ({
        raw: testFromCsvRow(row),
        where: `${file.path}: row ${index + 2}`,
      }));
    case 'jsonl':
      return parseJsonLines(file).map((line, index) => ({
        raw: asObject(line, `${file.path}: line ${index + 1}`),
        where: `${file.path}: line ${index + 1}`,
      }));
    case 'json':
    case 'yaml':
    case 'yml': {
      const value = parseDocument(file);
      const list = Array.isArray(value) ? value : [value];
      return list.map((item, index) => ({
        raw: asObject(item, `${file.path}: [${index}]`),
        where: `${file.path}: [${index}]`,
      }));
    }
    default:
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${file.path}: calltape reads tests from .yaml, .yml, .json, .jsonl and .csv files`,
      );
  }
}

function mergeDefault(
  defaults: Raw,
  raw: Raw,
  where: string,
  file: string,
): { vars: Raw; test: Omit<PromptfooTest, 'vars'> } {
  const options = {
    ...optionalObject(defaults['options'], 'defaultTest.options'),
    ...optionalObject(raw['options'], `${where}.options`),
  };
  const transform = options['transform'];
  const assertions = [
    ...assertionList(defaults['assert'], `${file}: defaultTest.assert`).map((item) => ({
      ...item,
      where: `${item.where} for ${where}`,
    })),
    ...assertionList(raw['assert'], `${where}.assert`),
  ];
  const threshold =
    numberOr(raw['threshold'], `${where}.threshold`) ??
    numberOr(defaults['threshold'], 'defaultTest.threshold');
  const unsupported = [
    ...Object.keys(raw)
      .filter((key) => !testKeys.has(key))
      .map((key) => `${where}.${key}`),
    ...Object.keys(options)
      .filter((key) => key !== 'transform' && !inertOptions.has(key))
      .map((key) => `${where}.options.${key}`),
  ];
  return {
    vars: {
      ...optionalObject(defaults['vars'], 'defaultTest.vars'),
      ...optionalObject(raw['vars'], `${where}.vars`),
    },
    test: {
      where,
      description: typeof raw['description'] === 'string' ? raw['description'] : undefined,
      assert: assertions.map(({ value, where: at }) =>
        readAssertion(value, at, typeof transform === 'string' ? transform : undefined),
      ),
      threshold,
      unsupported,
    },
  };
}

function assertionList(
  value: JsonValue | undefined,
  where: string,
): { value: Raw; where: string }[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw new CalltapeError('CONFIG_INVALID', `${where}: must be a list of assertions`);
  return value.map((item, index) => {
    const csv =
      typeof item === 'object' && item !== null && !Array.isArray(item)
        ? item['csvColumn']
        : undefined;
    const at =
      typeof csv === 'string' ? `${where.replace(/\.assert$/, '')} ${csv}` : `${where}[${index}]`;
    return { value: asObject(item, at), where: at };
  });
}

function readAssertion(
  raw: Raw,
  where: string,
  testTransform: string | undefined,
): PromptfooAssertion {
  const type = raw['type'];
  if (typeof type !== 'string' || type === '')
    throw new CalltapeError('CONFIG_INVALID', `${where}.type: missing or not a text`);
  const inverse = type.startsWith('not-');
  const transform = raw['transform'];
  const metric = raw['metric'];
  return {
    where: `${where} (${type})`,
    type: inverse ? type.slice(4) : type,
    inverse,
    value: raw['value'],
    transform: typeof transform === 'string' ? transform : testTransform,
    threshold: numberOr(raw['threshold'], `${where}.threshold`),
    weight: numberOr(raw['weight'], `${where}.weight`),
    metric: typeof metric === 'string' ? metric : undefined,
  };
}

/** Vars with `file://` values read (text files only); a string saying why when one is code. */
function readVars(
  vars: Raw,
  where: string,
  read: ReadNamedFile | undefined,
): Map<string, JsonValue> | string {
  const result = new Map<string, JsonValue>();
  for (const [name, value] of Object.entries(vars)) {
    const path = typeof value === 'string' ? includePath(value) : undefined;
    if (path === undefined) {
      result.set(name, value);
      continue;
    }
    if (['js', 'cjs', 'mjs', 'ts', 'py'].includes(extensionOf(path.split(':')[0] ?? path)))
      return `vars.${name} is computed by code (file://${path}); calltape cannot run it to get the prompt`;
    const included = readInclude(path, `${where}.${name}`, read);
    const extension = extensionOf(included.path);
    result.set(
      name,
      extension === 'json' || extension === 'yaml' || extension === 'yml'
        ? parseDocument(included)
        : included.text,
    );
  }
  return result;
}

/** Most tests one promptfoo test may expand into; past it the file is refused rather than exhausting memory. */
const maxCombinations = 10_000;

function combinations(
  vars: ReadonlyMap<string, JsonValue>,
  where: string,
): Map<string, JsonValue>[] {
  let result = [new Map<string, JsonValue>()];
  for (const [name, value] of vars) {
    const choices = Array.isArray(value) && value.length > 0 ? value : [value];
    if (result.length * choices.length > maxCombinations)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${where}.vars: its lists expand into more than ${maxCombinations} tests`,
      );
    result = result.flatMap((partial) =>
      choices.map((choice) => new Map([...partial, [name, choice]])),
    );
  }
  return result;
}

function asObject(value: JsonValue | undefined, where: string): Raw {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new CalltapeError('CONFIG_INVALID', `${where}: must be an object`);
  return value;
}

function optionalObject(value: JsonValue | undefined, where: string): Raw {
  return value === undefined || value === null ? {} : asObject(value, where);
}

function numberOr(value: JsonValue | undefined, where: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number')
    throw new CalltapeError('CONFIG_INVALID', `${where}: must be a number`);
  return value;
}
