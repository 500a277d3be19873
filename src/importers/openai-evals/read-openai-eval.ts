import type { JsonValue } from '../../trace/trace.js';
import { type Fail, type JsonObject, isJsonObject, objectAt, own, textAt } from '../source-json.js';

/** A chat message of a model grader's prompt, its content as text (a template). */
export interface GraderMessage {
  readonly role: string;
  readonly content: string;
}

interface GraderBase {
  readonly name: string;
  /** JSON path in the eval file (`$.testing_criteria[0]`, `$.testing_criteria[1].graders.arguments`). */
  readonly path: string;
}

/** One of the eval's testing criteria (the Evals API's grader objects). */
export type EvalGrader =
  | (GraderBase & {
      readonly type: 'string_check';
      readonly input: string;
      readonly reference: string;
      readonly operation: 'eq' | 'ne' | 'like' | 'ilike';
    })
  | (GraderBase & {
      readonly type: 'text_similarity';
      readonly input: string;
      readonly reference: string;
      readonly metric: string;
      readonly threshold: number;
    })
  | (GraderBase & {
      readonly type: 'label_model' | 'score_model';
      readonly model: string | undefined;
      readonly messages: readonly GraderMessage[];
      /** label_model: the labels and those that pass. */
      readonly labels: readonly string[];
      readonly passingLabels: readonly string[];
      /** score_model: the score range and the pass threshold. */
      readonly range: readonly number[] | undefined;
      readonly threshold: number | undefined;
    })
  | (GraderBase & { readonly type: 'python'; readonly source: string })
  | (GraderBase & {
      readonly type: 'multi';
      readonly graders: readonly EvalGrader[];
      readonly formula: string | undefined;
    });

/** An exported eval: its name, where its items come from and its graders. */
export interface OpenAiEval {
  readonly name: string | undefined;
  /** `custom` (items you upload), `logs` or `stored_completions` (items are stored responses). */
  readonly dataSource: string;
  readonly graders: readonly EvalGrader[];
}

const graderTypes = [
  'string_check',
  'text_similarity',
  'label_model',
  'score_model',
  'python',
  'multi',
] as const;
const operations = ['eq', 'ne', 'like', 'ilike'] as const;

/**
 * Reads an eval object as `GET /v1/evals/{id}` returns it (or the create request's body:
 * `data_source_config`, `testing_criteria`). Bad input, unknown grader types included, throws
 * CONFIG_INVALID naming the file and the JSON path of the field.
 */
export function readOpenAiEval(value: JsonValue, fail: Fail): OpenAiEval {
  const root = objectAt(value, '$', fail);
  const criteria = own(root, 'testing_criteria');
  if (!Array.isArray(criteria))
    return fail(
      '$.testing_criteria',
      'missing or not a list: this is not an OpenAI eval object (GET /v1/evals/{id}: data_source_config, testing_criteria)',
    );
  const config = objectAt(own(root, 'data_source_config'), '$.data_source_config', fail);
  const name = own(root, 'name');
  return {
    name: typeof name === 'string' && name.length > 0 ? name : undefined,
    dataSource: textAt(config, 'type', '$.data_source_config', fail).replace('-', '_'),
    graders: criteria.map((item, index) => readGrader(item, `$.testing_criteria[${index}]`, fail)),
  };
}

function readGrader(value: JsonValue, path: string, fail: Fail): EvalGrader {
  const grader = objectAt(value, path, fail);
  const type = textAt(grader, 'type', path, fail);
  const nameValue = own(grader, 'name');
  const name = typeof nameValue === 'string' ? nameValue : path;
  switch (type) {
    case 'string_check': {
      const operation = textAt(grader, 'operation', path, fail);
      if (!(operations as readonly string[]).includes(operation))
        return fail(`${path}.operation`, `"${operation}" is not one of ${operations.join(', ')}`);
      return {
        type,
        name,
        path,
        input: template(grader, 'input', path, fail),
        reference: template(grader, 'reference', path, fail),
        operation: operation as (typeof operations)[number],
      };
    }
    case 'text_similarity': {
      const threshold = own(grader, 'pass_threshold');
      return {
        type,
        name,
        path,
        input: template(grader, 'input', path, fail),
        reference: template(grader, 'reference', path, fail),
        metric: textAt(grader, 'evaluation_metric', path, fail),
        threshold:
          typeof threshold === 'number'
            ? threshold
            : fail(`${path}.pass_threshold`, 'missing or not a number'),
      };
    }
    case 'label_model':
    case 'score_model':
      return readModelGrader(grader, type, name, path, fail);
    case 'python':
      return { type, name, path, source: textAt(grader, 'source', path, fail) };
    case 'multi': {
      const graders = objectAt(own(grader, 'graders'), `${path}.graders`, fail);
      const formula = own(grader, 'calculate_output');
      return {
        type,
        name,
        path,
        graders: Object.entries(graders).map(([key, item]) =>
          readGrader(item, `${path}.graders.${key}`, fail),
        ),
        formula: typeof formula === 'string' ? formula : undefined,
      };
    }
    default:
      return fail(
        `${path}.type`,
        `"${type}" is not a grader type calltape knows (${graderTypes.join(', ')})`,
      );
  }
}

function readModelGrader(
  grader: JsonObject,
  type: 'label_model' | 'score_model',
  name: string,
  path: string,
  fail: Fail,
): EvalGrader {
  const input = own(grader, 'input');
  if (!Array.isArray(input)) return fail(`${path}.input`, 'missing or not a list of messages');
  const model = own(grader, 'model');
  const range = own(grader, 'range');
  const threshold = own(grader, 'pass_threshold');
  return {
    type,
    name,
    path,
    model: typeof model === 'string' && model.length > 0 ? model : undefined,
    messages: input.map((message, index) => readMessage(message, `${path}.input[${index}]`, fail)),
    labels: texts(own(grader, 'labels')),
    passingLabels: texts(own(grader, 'passing_labels')),
    range:
      Array.isArray(range) && range.every((bound) => typeof bound === 'number')
        ? (range as number[])
        : undefined,
    threshold: typeof threshold === 'number' ? threshold : undefined,
  };
}

/** A message of a grader's prompt or a run's template: `{role, content}` with content as text or parts. */
export function readMessage(value: JsonValue, path: string, fail: Fail): GraderMessage {
  const message = objectAt(value, path, fail);
  const role = textAt(message, 'role', path, fail);
  return { role, content: contentText(own(message, 'content'), `${path}.content`, fail) };
}

/** A message content's text: a string, an `{type: input_text|output_text, text}` part, or a list of them. */
function contentText(value: JsonValue | undefined, path: string, fail: Fail): string {
  if (typeof value === 'string') return value;
  if (isJsonObject(value)) {
    const text = own(value, 'text');
    if (typeof text === 'string') return text;
  }
  if (Array.isArray(value))
    return value.map((part, index) => contentText(part, `${path}[${index}]`, fail)).join('\n');
  return fail(path, 'expected a text, or text parts ({type: input_text, text})');
}

function template(grader: JsonObject, key: string, path: string, fail: Fail): string {
  const value = own(grader, key);
  return typeof value === 'string'
    ? value
    : fail(`${path}.${key}`, 'missing or not a text (a template)');
}

function texts(value: JsonValue | undefined): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}
