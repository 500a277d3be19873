import type { JsonValue } from '../../trace/trace.js';
import type { ImportedSuite, ImportNote } from '../import-types.js';
import { isJsonObject, own } from '../source-json.js';
import { renderTemplate } from './eval-template.js';
import { type GraderPlan, planEvalGraders } from './plan-eval-graders.js';
import type { EvalItem, OpenAiEvalRun } from './read-openai-eval-run.js';
import type { GraderMessage, OpenAiEval } from './read-openai-eval.js';

type Note = (item: string, outcome: ImportNote['outcome'], detail: string) => void;
type JsonMap = { [key: string]: JsonValue };

/** One expected call of a case, built up by the graders that read `output_tools[i]`. */
interface CallDraft {
  tool?: string;
  arguments?: JsonMap;
  /** Rules by argument name, as entries: an argument may be named `__proto__`. */
  rules: [string, JsonValue][];
}

/** Words a judge rubric uses for the sample's fields, which the judge sees as the run itself. */
const sampleWords = (expression: string): string =>
  expression.startsWith('sample.output_tools')
    ? "[the agent's tool calls]"
    : expression.startsWith('sample.output_text')
      ? "[the agent's reply]"
      : "[the agent's answer]";

/**
 * A calltape suite from an exported OpenAI eval, its items and (optionally) a run: each item a
 * case whose prompt is the run's template rendered with the item, graders over tool calls its
 * expectations, model graders its judges. Every grader and item gets a note; the same input gives
 * the same suite, key for key.
 */
export function convertOpenAiEvals(
  evaluation: OpenAiEval,
  items: readonly EvalItem[],
  run: OpenAiEvalRun | undefined,
  files: { readonly eval: string; readonly run: string | undefined },
): ImportedSuite {
  const notes: ImportNote[] = [];
  const note: Note = (item, outcome, detail) =>
    notes.push({ item: item.startsWith('$') ? `${files.eval}: ${item}` : item, outcome, detail });
  describeSources(evaluation, items, run, files, note);
  const plans = planEvalGraders(evaluation.graders, note);
  const cases = items.flatMap((item, index) => {
    const converted = convertItem(item, `item-${index + 1}`, plans, run, note);
    return converted === undefined ? [] : [converted];
  });
  const suite: JsonMap = {
    name: evaluation.name ?? files.eval.replace(/^.*[\\/]/, '').replace(/\.json$/i, ''),
    description: `Imported from the OpenAI eval ${files.eval} by calltape import openai-evals`,
    ...(run?.model !== undefined ? { model: run.model } : {}),
    ...(run && run.tools.length > 0 ? { tools: [...run.tools] } : {}),
    cases,
  };
  return { suite, notes };
}

function describeSources(
  evaluation: OpenAiEval,
  items: readonly EvalItem[],
  run: OpenAiEvalRun | undefined,
  files: { readonly eval: string; readonly run: string | undefined },
  note: Note,
): void {
  if (evaluation.dataSource !== 'custom')
    note(
      '$.data_source_config',
      items.length > 0 ? 'approximated' : 'not converted',
      `a ${evaluation.dataSource} data source: its items are responses stored at OpenAI${
        items.length > 0
          ? '; the items given are used instead'
          : '; export them as JSONL and pass --items'
      }`,
    );
  if (items.length === 0)
    note(
      '(items)',
      'not converted',
      'no items: pass --items items.jsonl (or a run whose data_source.source holds file_content)',
    );
  if (run === undefined) {
    note(
      '(run)',
      'not converted',
      "the prompts, model and tools: an eval object holds none (they are in a run's data_source); pass --run run.json, or give the suite model, tools and each case's prompt by hand. Meanwhile each item's input field, when it is a text, is its prompt",
    );
    return;
  }
  const where = (path: string): string => `${files.run ?? 'run'}: ${path}`;
  note(
    where('$.data_source'),
    'converted',
    `${run.type} data source: model${run.model ? ` ${run.model}` : ' (none given)'} and ${run.tools.length} function tool(s) as the suite's model and tools`,
  );
  for (const path of run.otherTools)
    note(
      where(path),
      'not converted',
      'a built-in tool (not a function): direct mode offers function tools only',
    );
  if (run.sampling.length > 0)
    note(
      where('$.data_source.sampling_params'),
      'not converted',
      `${run.sampling.join(', ')}: direct mode sends the model's defaults`,
    );
  if (run.itemsElsewhere !== undefined)
    note(
      where('$.data_source.source'),
      items.length > 0 ? 'approximated' : 'not converted',
      `the run's items are in ${run.itemsElsewhere}, which calltape cannot read${items.length > 0 ? '; the items given are used' : '; download them and pass --items'}`,
    );
}

function convertItem(
  { item, where, sample }: EvalItem,
  id: string,
  plans: readonly GraderPlan[],
  run: OpenAiEvalRun | undefined,
  note: Note,
): JsonValue | undefined {
  const prompt = promptOf(item, run);
  if (prompt === undefined) {
    note(
      where,
      'not converted',
      `no prompt: ${
        run?.prompt
          ? 'the run template reads an item field it lacks'
          : `${run ? 'the run has no input_messages template' : 'no run'}, and the item has no input text`
      }`,
    );
    return undefined;
  }
  const calls = new Map<number, CallDraft>();
  const never: string[] = [];
  const judges: JsonValue[] = [];
  let extraArguments = false;
  for (const plan of plans) {
    if (plan.kind === 'judge') {
      judges.push(judgeOf(plan.grader, item));
      continue;
    }
    const rendered = renderTemplate(plan.expected, item);
    if (rendered.missing !== undefined) {
      note(where, 'not converted', `grader ${plan.grader}: the item has no ${rendered.missing}`);
      continue;
    }
    const draft = calls.get(plan.call.index) ?? { rules: [] };
    if (plan.call.field === 'name') {
      if (plan.how === 'ne') never.push(rendered.text);
      else if (plan.how === 'contains') draft.tool = `*${rendered.text}*`;
      else draft.tool = rendered.text;
    } else {
      const parsed = parseArguments(rendered.text);
      if (parsed === undefined) {
        note(
          where,
          'not converted',
          `grader ${plan.grader}: the expected arguments ${JSON.stringify(rendered.text)} are not a JSON object`,
        );
        continue;
      }
      draft.arguments = parsed;
      extraArguments = true;
      if (plan.rule) {
        const rule = plan.rule;
        draft.rules = Object.entries(parsed)
          .filter(([, value]) => typeof value === 'string')
          .map(([key]) => [key, { ...rule }]);
      }
    }
    if (plan.how !== 'ne') calls.set(plan.call.index, draft);
  }
  note(where, 'converted', `as case ${id}`);
  if (sample)
    note(
      `${where}.sample`,
      'not converted',
      "an answer generated before the eval ran; calltape records and grades its own model's answer",
    );
  return {
    test_id: id,
    ...prompt,
    ...expectationOf(
      [...calls.entries()].sort(([a], [b]) => a - b).map(([, draft]) => draft),
      extraArguments,
    ),
    ...(never.length > 0 ? { never } : {}),
    ...(judges.length === 1
      ? { judge: judges[0] ?? null }
      : judges.length > 1
        ? { judge: judges }
        : {}),
  };
}

/** The case's call expectation: the classic fields for the first call, expected_calls for several. */
function expectationOf(drafts: readonly CallDraft[], extraArguments: boolean): JsonMap {
  if (drafts.length === 0) return {};
  const fields = (draft: CallDraft): JsonMap => ({
    expected_tool: draft.tool ?? '*',
    ...(draft.arguments ? { arguments: draft.arguments } : {}),
    ...(draft.rules.length > 0 ? { rules: Object.fromEntries(draft.rules) } : {}),
  });
  const policy = extraArguments ? { extra_arguments: 'fail' } : {};
  const [first] = drafts;
  if (drafts.length === 1 && first) return { ...fields(first), ...policy, multiple_calls: 'first' };
  return { expected_calls: drafts.map(fields), ...policy };
}

function promptOf(item: JsonValue, run: OpenAiEvalRun | undefined): JsonMap | undefined {
  if (run?.prompt === undefined) {
    const input = isJsonObject(item) ? own(item, 'input') : undefined;
    return typeof input === 'string' && input.length > 0 ? { prompt: input } : undefined;
  }
  let messages: GraderMessage[] = [];
  if (run.prompt.kind === 'reference') {
    const path = run.prompt.field.replace(/^item\./, '');
    const value = isJsonObject(item) ? own(item, path) : undefined;
    if (!Array.isArray(value)) return undefined;
    for (const message of value) {
      const role = isJsonObject(message) ? own(message, 'role') : undefined;
      const content = isJsonObject(message) ? own(message, 'content') : undefined;
      if (typeof role !== 'string' || typeof content !== 'string') return undefined;
      messages.push({ role, content });
    }
  } else {
    for (const message of run.prompt.messages) {
      const rendered = renderTemplate(message.content, item);
      if (rendered.missing !== undefined) return undefined;
      messages.push({ role: message.role, content: rendered.text });
    }
  }
  messages = messages.filter((message) => message.content.length > 0);
  const [only] = messages;
  if (messages.length === 1 && only?.role === 'user') return { prompt: only.content };
  return {
    messages: messages.map((message) => ({ role: message.role, content: message.content })),
  };
}

function judgeOf(
  grader: Extract<GraderPlan, { kind: 'judge' }>['grader'],
  item: JsonValue,
): JsonValue {
  const prompt = grader.messages
    .map((message) => {
      const rendered = renderTemplate(message.content, item, sampleWords);
      return `${message.role}: ${rendered.missing === undefined ? rendered.text : message.content}`;
    })
    .join('\n');
  const verdict =
    grader.type === 'label_model'
      ? `Pass when this grader would give one of the labels ${grader.passingLabels.join(', ')} (of ${grader.labels.join(', ')}).`
      : `Pass when this grader's score${grader.range ? ` (range ${grader.range.join(' to ')})` : ''} would reach ${grader.threshold ?? 'its pass threshold'}.`;
  return {
    rubric: `The OpenAI eval's ${grader.type} grader "${grader.name}" asks:\n${prompt}\n${verdict}`,
    ...(grader.model ? { model: grader.model } : {}),
  };
}

function parseArguments(text: string): JsonMap | undefined {
  try {
    const value = JSON.parse(text) as JsonValue;
    return isJsonObject(value) ? (value as JsonMap) : undefined;
  } catch {
    return undefined;
  }
}
