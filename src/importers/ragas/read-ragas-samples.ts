import type { JsonValue } from '../../trace/trace.js';
import type { SourceFile } from '../import-types.js';
import {
  type Fail,
  type JsonObject,
  failIn,
  isJsonObject,
  objectAt,
  own,
  parseJsonLines,
  parseJsonSource,
  textAt,
} from '../source-json.js';

/** A Ragas ToolCall: `{name, args}`. */
export interface RagasToolCall {
  readonly name: string;
  readonly args: { readonly [key: string]: JsonValue };
}

/** One MultiTurnSample (or a SingleTurnSample whose user_input is a text). */
export interface RagasSample {
  /** `$[0]` (JSON) or `line 3` (JSONL). */
  readonly path: string;
  /** The human messages, in order: the user turns. */
  readonly userTurns: readonly string[];
  /** How many tool calls the AI messages recorded (the run Ragas scored). */
  readonly recordedCalls: number;
  /** undefined when the sample has no reference_tool_calls. */
  readonly referenceToolCalls: readonly RagasToolCall[] | undefined;
  /** Other fields with a value (reference, reference_topics, rubrics), which other metrics read. */
  readonly otherFields: readonly string[];
}

const otherFieldNames = ['reference', 'reference_topics', 'rubrics', 'response'] as const;

/**
 * Reads Ragas samples as EvaluationDataset writes them: JSON (a list of samples, an object with
 * `samples`, or one sample) or JSONL (`to_jsonl`: one sample per line). A sample's `user_input`
 * is a list of messages typed `human`, `ai` (with `tool_calls`) and `tool`. Bad input throws
 * CONFIG_INVALID naming the file and the field.
 */
export function readRagasSamples(file: SourceFile): RagasSample[] {
  const fail = failIn(file.path);
  if (/\.jsonl$/i.test(file.path))
    return parseJsonLines(file).map(({ line, value }) => readSample(value, `line ${line}`, fail));
  const root = parseJsonSource(file);
  if (Array.isArray(root))
    return root.map((sample, index) => readSample(sample, `$[${index}]`, fail));
  if (isJsonObject(root) && Array.isArray(own(root, 'samples')))
    return (own(root, 'samples') as JsonValue[]).map((sample, index) =>
      readSample(sample, `$.samples[${index}]`, fail),
    );
  return [readSample(root, '$', fail)];
}

function readSample(value: JsonValue, path: string, fail: Fail): RagasSample {
  const sample = objectAt(value, path, fail);
  const input = own(sample, 'user_input');
  const references = own(sample, 'reference_tool_calls');
  const base = {
    path,
    referenceToolCalls:
      references === undefined || references === null
        ? undefined
        : toolCalls(references, `${path}.reference_tool_calls`, fail),
    otherFields: otherFieldNames.filter((field) => {
      const item = own(sample, field);
      return item !== undefined && item !== null && item !== '';
    }),
  };
  if (typeof input === 'string')
    return { ...base, userTurns: input.length > 0 ? [input] : [], recordedCalls: 0 };
  if (!Array.isArray(input))
    return fail(
      `${path}.user_input`,
      'missing, or not a list of messages (human, ai, tool) nor a text: this is not a Ragas sample',
    );
  const userTurns: string[] = [];
  let recordedCalls = 0;
  input.forEach((entry, index) => {
    const where = `${path}.user_input[${index}]`;
    const message = objectAt(entry, where, fail);
    const type = textAt(message, 'type', where, fail);
    const content = own(message, 'content');
    if (type === 'human') {
      if (typeof content !== 'string') return fail(`${where}.content`, 'missing or not a text');
      if (content.length > 0) userTurns.push(content);
    } else if (type === 'ai') {
      const calls = own(message, 'tool_calls');
      if (calls !== undefined && calls !== null)
        recordedCalls += toolCalls(calls, `${where}.tool_calls`, fail).length;
    } else if (type !== 'tool') return fail(`${where}.type`, `"${type}" is not human, ai or tool`);
    return undefined;
  });
  return { ...base, userTurns, recordedCalls };
}

function toolCalls(value: JsonValue, path: string, fail: Fail): RagasToolCall[] {
  if (!Array.isArray(value)) return fail(path, 'expected a list of tool calls ({name, args})');
  return value.map((entry, index) => {
    const call: JsonObject = objectAt(entry, `${path}[${index}]`, fail);
    const args = own(call, 'args') ?? {};
    return {
      name: textAt(call, 'name', `${path}[${index}]`, fail),
      args: objectAt(args, `${path}[${index}].args`, fail),
    };
  });
}
