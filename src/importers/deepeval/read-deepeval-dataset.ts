import { parse as parseCsv } from 'csv-parse/sync';
import { CalltapeError } from '../../errors.js';
import type { JsonValue } from '../../trace/trace.js';
import type { SourceFile } from '../import-types.js';
import {
  type Fail,
  type JsonObject,
  failIn,
  isJsonObject,
  objectAt,
  own,
  parseJsonSource,
} from '../source-json.js';

/** A DeepEval ToolCall: a name, and the input parameters and output when given. */
export interface DeepEvalToolCall {
  readonly name: string;
  readonly inputParameters: { readonly [key: string]: JsonValue } | undefined;
  readonly output: JsonValue | undefined;
  readonly path: string;
}

/** One golden (or test case) of an EvaluationDataset. */
export interface DeepEvalGolden {
  /** Where it is: `$[2]` (JSON) or `row 3` (CSV). */
  readonly path: string;
  readonly name: string | undefined;
  readonly input: string | undefined;
  /** undefined when the golden has no expected_tools at all (nothing is checked about tools). */
  readonly expectedTools: readonly DeepEvalToolCall[] | undefined;
  /** The recorded run's calls (`tools_called`), which calltape replaces with its own run. */
  readonly toolsCalled: number;
  /** Other fields with a value (expected_output, context, …), which DeepEval's other metrics read. */
  readonly otherFields: readonly string[];
  /** A conversational golden (`scenario`, `turns`): not a single-turn tool-call case. */
  readonly conversational: boolean;
}

const otherFieldNames = [
  'actual_output',
  'expected_output',
  'context',
  'retrieval_context',
  'additional_metadata',
  'comments',
] as const;

/**
 * Reads a DeepEval EvaluationDataset saved as JSON (a list of goldens, or an object with
 * `goldens` / `test_cases`) or CSV (one golden per row, DeepEval's column names; tool columns
 * hold a JSON list of ToolCalls, or tool names split by `;`). Bad input throws CONFIG_INVALID
 * naming the file and the field.
 */
export function readDeepEvalDataset(file: SourceFile): DeepEvalGolden[] {
  const fail = failIn(file.path);
  if (/\.csv$/i.test(file.path)) return readCsv(file, fail);
  const root = parseJsonSource(file);
  const list = Array.isArray(root)
    ? { rows: root, path: '$' }
    : isJsonObject(root) && Array.isArray(own(root, 'goldens'))
      ? { rows: own(root, 'goldens') as JsonValue[], path: '$.goldens' }
      : isJsonObject(root) && Array.isArray(own(root, 'test_cases'))
        ? { rows: own(root, 'test_cases') as JsonValue[], path: '$.test_cases' }
        : fail(
            '$',
            'expected a DeepEval dataset: a list of goldens, or an object with goldens or test_cases',
          );
  return list.rows.map((row, index) =>
    readGolden(objectAt(row, `${list.path}[${index}]`, fail), `${list.path}[${index}]`, fail),
  );
}

function readGolden(golden: JsonObject, path: string, fail: Fail): DeepEvalGolden {
  const input = own(golden, 'input');
  const name = own(golden, 'name');
  const expected = own(golden, 'expected_tools', 'expectedTools');
  const called = own(golden, 'tools_called', 'toolsCalled');
  return {
    path,
    name: typeof name === 'string' && name.length > 0 ? name : undefined,
    input: typeof input === 'string' && input.length > 0 ? input : undefined,
    expectedTools:
      expected === undefined || expected === null
        ? undefined
        : toolCalls(expected, `${path}.expected_tools`, fail),
    toolsCalled: Array.isArray(called) ? called.length : 0,
    otherFields: otherFieldNames.filter((field) => {
      const value = own(golden, field);
      return (
        value !== undefined &&
        value !== null &&
        value !== '' &&
        !(Array.isArray(value) && value.length === 0)
      );
    }),
    conversational: own(golden, 'turns') !== undefined || own(golden, 'scenario') !== undefined,
  };
}

function toolCalls(value: JsonValue, path: string, fail: Fail): DeepEvalToolCall[] {
  if (!Array.isArray(value)) return fail(path, 'expected a list of ToolCalls');
  return value.map((entry, index) => {
    const where = `${path}[${index}]`;
    if (typeof entry === 'string' && entry.length > 0)
      return { name: entry, inputParameters: undefined, output: undefined, path: where };
    const call = objectAt(entry, where, fail);
    const name = own(call, 'name');
    if (typeof name !== 'string' || name.length === 0)
      return fail(`${where}.name`, 'missing or not a text');
    const parameters = own(call, 'input_parameters', 'inputParameters');
    return {
      name,
      inputParameters:
        parameters === undefined || parameters === null
          ? undefined
          : objectAt(parameters, `${where}.input_parameters`, fail),
      output: own(call, 'output') ?? undefined,
      path: where,
    };
  });
}

function readCsv(file: SourceFile, fail: Fail): DeepEvalGolden[] {
  let rows: string[][];
  try {
    // Rows as arrays, not objects: a header named __proto__ stays a column like any other.
    rows = parseCsv(file.text, { bom: true, skip_empty_lines: true, relax_column_count: false });
  } catch (error) {
    throw new CalltapeError('CONFIG_INVALID', `${file.path}: not CSV: ${(error as Error).message}`);
  }
  const [header, ...body] = rows;
  if (!header?.includes('input'))
    return fail(
      'row 1',
      'expected a header row with an input column (DeepEval: input, expected_tools, …)',
    );
  return body.map((cells, index) => {
    const path = `row ${index + 2}`;
    const entries = header.map((column, at): [string, string] => [column, cells[at] ?? '']);
    const golden: { [key: string]: JsonValue } = Object.fromEntries(
      entries.map(([column, text]) => [
        column,
        column === 'expected_tools' || column === 'tools_called'
          ? csvTools(text, `${path}.${column}`, fail)
          : text,
      ]),
    );
    return readGolden(golden, path, fail);
  });
}

/** A CSV tool column: DeepEval's JSON list of ToolCalls, or tool names split by `;` (its fallback). */
function csvTools(text: string, path: string, fail: Fail): JsonValue {
  if (text.trim() === '') return null;
  if (text.trim().startsWith('[')) {
    try {
      return JSON.parse(text) as JsonValue;
    } catch (error) {
      return fail(path, `not a JSON list of ToolCalls: ${(error as Error).message}`);
    }
  }
  return text
    .split(';')
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
}
