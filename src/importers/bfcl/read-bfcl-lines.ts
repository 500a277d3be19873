import { CalltapeError } from '../../errors.js';
import type { JsonValue } from '../../trace/trace.js';

type JsonObject = { readonly [key: string]: JsonValue };

/** A BFCL function document: its name and its parameters as BFCL writes them (`type: dict`, `float`, …). */
export interface BfclFunction {
  readonly name: string;
  readonly description: string | undefined;
  /** BFCL's parameter object (`{type: dict, properties, required}`), untouched. */
  readonly parameters: JsonObject;
  readonly path: string;
}

/** One question of a BFCL category file: its conversation turns and the functions offered. */
export interface BfclQuestion {
  readonly id: string;
  /** `file: line N`, for notes and errors. */
  readonly where: string;
  /** BFCL's `question`: one list of chat messages per user turn. */
  readonly turns: readonly (readonly JsonObject[])[];
  readonly functions: readonly BfclFunction[];
}

/** One expected call of a possible answer: each parameter with its acceptable values (`""`: may be left out). */
export interface BfclAnswerCall {
  readonly name: string;
  readonly parameters: ReadonlyMap<string, readonly JsonValue[]>;
}

/** A question's possible answer (`ground_truth`), from the `possible_answer` file. */
export interface BfclAnswer {
  readonly id: string;
  readonly where: string;
  readonly calls: readonly BfclAnswerCall[];
}

/**
 * BFCL's files are JSON Lines (one object a line) despite their `.json` name. Each line is parsed
 * and checked; bad input throws CONFIG_INVALID naming the file, the line and the JSON path.
 */
function readLines<T>(
  text: string,
  file: string,
  read: (value: JsonObject, fail: (path: string, why: string) => never, where: string) => T,
): T[] {
  const entries: T[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${file}: line ${index + 1}`;
    const fail = (path: string, why: string): never => {
      throw new CalltapeError('CONFIG_INVALID', `${where}: ${path}: ${why}`);
    };
    let value: JsonValue;
    try {
      value = JSON.parse(line) as JsonValue;
    } catch (error) {
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${where}: not JSON (BFCL files hold one JSON object a line): ${(error as Error).message}`,
      );
    }
    if (!isObject(value)) fail('$', 'expected an object');
    entries.push(read(value as JsonObject, fail, where));
  });
  return entries;
}

/** The questions of a BFCL category file (`BFCL_v4_simple_python.json`). */
export function readBfclQuestions(text: string, file: string): BfclQuestion[] {
  return readLines(text, file, (value, fail, where) => {
    const id = field(value, 'id');
    if (typeof id !== 'string' || id === '') fail('$.id', 'missing or not a text');
    const question = field(value, 'question');
    if (!Array.isArray(question)) fail('$.question', 'missing or not a list of turns');
    const turns = (question as JsonValue[]).map((turn, t) => {
      // A few BFCL versions wrote a single turn as a bare list of messages.
      if (!Array.isArray(turn)) fail(`$.question[${t}]`, 'expected a list of messages');
      return (turn as JsonValue[]).map((message, m) => {
        if (!isObject(message) || typeof field(message as JsonObject, 'role') !== 'string')
          fail(`$.question[${t}][${m}]`, 'expected a message with a role');
        return message as JsonObject;
      });
    });
    const functions = field(value, 'function');
    if (functions !== undefined && !Array.isArray(functions))
      fail('$.function', 'expected a list of function documents');
    return {
      id: id as string,
      where,
      turns,
      functions: ((functions ?? []) as JsonValue[]).map((item, f) => {
        const path = `$.function[${f}]`;
        if (!isObject(item)) fail(path, 'expected a function document');
        const name = field(item as JsonObject, 'name');
        if (typeof name !== 'string' || name === '') fail(`${path}.name`, 'missing or not a text');
        const parameters = field(item as JsonObject, 'parameters') ?? { type: 'dict' };
        if (!isObject(parameters)) fail(`${path}.parameters`, 'expected an object');
        const properties = field(parameters as JsonObject, 'properties');
        if (properties !== undefined && !isObject(properties))
          fail(`${path}.parameters.properties`, 'expected an object of parameters');
        const description = field(item as JsonObject, 'description');
        return {
          name: name as string,
          description: typeof description === 'string' ? description : undefined,
          parameters: parameters as JsonObject,
          path,
        };
      }),
    };
  });
}

/** The possible answers of a category (`possible_answer/BFCL_v4_simple_python.json`). */
export function readBfclAnswers(text: string, file: string): BfclAnswer[] {
  return readLines(text, file, (value, fail, where) => {
    const id = field(value, 'id');
    if (typeof id !== 'string' || id === '') fail('$.id', 'missing or not a text');
    const truth = field(value, 'ground_truth');
    if (!Array.isArray(truth)) fail('$.ground_truth', 'missing or not a list of calls');
    const calls = (truth as JsonValue[]).map((call, c) => {
      const path = `$.ground_truth[${c}]`;
      const keys = isObject(call) ? Object.keys(call) : [];
      if (keys.length !== 1)
        fail(path, 'expected an object with one key, the function name, holding its parameters');
      const name = keys[0] as string;
      const parameters = field(call as JsonObject, name);
      if (!isObject(parameters))
        fail(`${path}.${name}`, 'expected an object of parameters, each a list of values');
      const map = new Map<string, readonly JsonValue[]>();
      for (const key of Object.keys(parameters as JsonObject)) {
        const values = field(parameters as JsonObject, key);
        if (!Array.isArray(values))
          fail(`${path}.${name}.${key}`, 'expected a list of acceptable values');
        map.set(key, values as JsonValue[]);
      }
      return { name, parameters: map };
    });
    return { id: id as string, where, calls };
  });
}

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own property, read as data (names come from input). */
export function field(value: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}
