import type { JsonValue } from '../../trace/trace.js';
import { type Fail, type JsonObject, isJsonObject, objectAt, own, textAt } from '../source-json.js';
import { type GraderMessage, readMessage } from './read-openai-eval.js';

/** One item of the eval's data, with where it was read from (`items.jsonl: line 3`). */
export interface EvalItem {
  readonly item: JsonValue;
  readonly where: string;
  /** The line (or run row) also carries a `sample`: an answer generated before, which calltape does not grade. */
  readonly sample?: boolean;
}

/** What a run of the eval says about how samples are made: the prompt template, model and tools. */
export interface OpenAiEvalRun {
  /** `completions`, `responses` or `jsonl` (samples given, none generated). */
  readonly type: string;
  /** The prompt: a template rendered per item, or the item field that holds the messages. */
  readonly prompt:
    | { readonly kind: 'template'; readonly messages: readonly GraderMessage[] }
    | { readonly kind: 'reference'; readonly field: string }
    | undefined;
  readonly model: string | undefined;
  /** Function tools as Chat Completions tool objects; other tools by JSON path, not converted. */
  readonly tools: readonly JsonValue[];
  readonly otherTools: readonly string[];
  /** Sampling settings calltape does not send (temperature, seed, …), by name. */
  readonly sampling: readonly string[];
  /** Items the run carries inline (`source.type: file_content`). */
  readonly items: readonly EvalItem[];
  /** Where items live that calltape cannot read (an uploaded file id, stored completions). */
  readonly itemsElsewhere: string | undefined;
}

/**
 * Reads an eval run (`GET /v1/evals/{id}/runs/{run_id}`, or the create request's body): its
 * `data_source` holds the prompt template, the model, the sampling parameters with the tools and
 * possibly the items. Bad input throws CONFIG_INVALID naming the file and the JSON path.
 */
export function readOpenAiEvalRun(value: JsonValue, file: string, fail: Fail): OpenAiEvalRun {
  const root = objectAt(value, '$', fail);
  const source = objectAt(own(root, 'data_source'), '$.data_source', fail);
  const type = textAt(source, 'type', '$.data_source', fail);
  const model = own(source, 'model') ?? own(root, 'model');
  const sampling = isJsonObject(own(source, 'sampling_params'))
    ? (own(source, 'sampling_params') as JsonObject)
    : {};
  const tools = own(sampling, 'tools') ?? [];
  if (!Array.isArray(tools)) return fail('$.data_source.sampling_params.tools', 'not a list');
  const functionTools: JsonValue[] = [];
  const otherTools: string[] = [];
  tools.forEach((tool, index) => {
    const converted = chatTool(tool);
    if (converted) functionTools.push(converted);
    else otherTools.push(`$.data_source.sampling_params.tools[${index}]`);
  });
  const items = readRunItems(own(source, 'source'), file, fail);
  return {
    type,
    prompt: readPrompt(own(source, 'input_messages'), fail),
    model: typeof model === 'string' && model.length > 0 ? model : undefined,
    tools: functionTools,
    otherTools,
    sampling: Object.keys(sampling)
      .filter((key) => key !== 'tools')
      .sort(),
    ...items,
  };
}

function readPrompt(value: JsonValue | undefined, fail: Fail): OpenAiEvalRun['prompt'] {
  if (value === undefined || value === null) return undefined;
  const path = '$.data_source.input_messages';
  const prompt = objectAt(value, path, fail);
  const type = textAt(prompt, 'type', path, fail);
  if (type === 'item_reference')
    return { kind: 'reference', field: textAt(prompt, 'item_reference', path, fail) };
  if (type !== 'template')
    return fail(`${path}.type`, `"${type}" is not template or item_reference`);
  const template = own(prompt, 'template');
  if (!Array.isArray(template))
    return fail(`${path}.template`, 'missing or not a list of messages');
  return {
    kind: 'template',
    messages: template.map((message, index) =>
      readMessage(message, `${path}.template[${index}]`, fail),
    ),
  };
}

function readRunItems(
  value: JsonValue | undefined,
  file: string,
  fail: Fail,
): Pick<OpenAiEvalRun, 'items' | 'itemsElsewhere'> {
  if (value === undefined || value === null) return { items: [], itemsElsewhere: undefined };
  const path = '$.data_source.source';
  const source = objectAt(value, path, fail);
  const type = textAt(source, 'type', path, fail);
  if (type !== 'file_content') {
    const id = own(source, 'id');
    return {
      items: [],
      itemsElsewhere: typeof id === 'string' ? `${type} ${id}` : type,
    };
  }
  const content = own(source, 'content');
  if (!Array.isArray(content)) return fail(`${path}.content`, 'missing or not a list');
  return {
    items: content.map((row, index) => {
      const where = `${path}.content[${index}]`;
      return {
        item: objectAt(own(objectAt(row, where, fail), 'item'), `${where}.item`, fail),
        where: `${file}: ${where}`,
      };
    }),
    itemsElsewhere: undefined,
  };
}

/** A function tool as Chat Completions declares it; undefined for built-in tools (web search, …). */
function chatTool(value: JsonValue): JsonValue | undefined {
  if (!isJsonObject(value) || own(value, 'type') !== 'function') return undefined;
  if (isJsonObject(own(value, 'function'))) return value;
  // The Responses API's flat shape: {type, name, description, parameters, strict}.
  const name = own(value, 'name');
  if (typeof name !== 'string') return undefined;
  const fields = Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'type')) as {
    [key: string]: JsonValue;
  };
  return { type: 'function', function: fields };
}

/**
 * Items from a JSONL file: each line `{"item": {...}}` (optionally with `sample`) or the item
 * itself; `where` names the file and line.
 */
export function readItemLines(
  rows: readonly { line: number; value: JsonValue }[],
  file: string,
): EvalItem[] {
  return rows.map(({ line, value }) => {
    const wrapped = isJsonObject(value) && isJsonObject(own(value, 'item'));
    const item = wrapped ? (own(value as JsonObject, 'item') as JsonValue) : value;
    return {
      item,
      where: `${file}: line ${line}`,
      sample: wrapped && own(value as JsonObject, 'sample') !== undefined,
    };
  });
}
