import type { ImportNote } from '../import-types.js';
import { readsSample, toolReference, type ToolReference } from './eval-template.js';
import type { EvalGrader } from './read-openai-eval.js';

/** How a grader checks each item's case; its `expected` template is rendered per item. */
export type GraderPlan =
  | {
      readonly kind: 'call';
      readonly grader: string;
      readonly call: ToolReference;
      readonly expected: string;
      /** eq: equal; ne: differs (a forbidden call); contains: a `*x*` name glob; similar: by similarity rules. */
      readonly how: 'eq' | 'ne' | 'contains' | 'similar';
      /** similar: the calltape rule that stands for the metric, with its threshold. */
      readonly rule?: {
        readonly matching_strategy: 'fuzzy' | 'semantic';
        readonly threshold: number;
      };
    }
  | {
      readonly kind: 'judge';
      readonly grader: Extract<EvalGrader, { type: 'label_model' | 'score_model' }>;
    };

type Note = (item: string, outcome: ImportNote['outcome'], detail: string) => void;

/** Text similarity metrics and the calltape rule that comes closest to each. */
function similarityRule(
  metric: string,
  threshold: number,
): NonNullable<Extract<GraderPlan, { kind: 'call' }>['rule']> {
  return { matching_strategy: metric === 'cosine' ? 'semantic' : 'fuzzy', threshold };
}

/**
 * What each grader becomes, with one note per grader (and per sub-grader of a multi grader):
 * tool-call checks for string_check / text_similarity over `sample.output_tools[i].function.*`,
 * LLM judges for model graders; python graders and checks of the reply's text are not converted.
 */
export function planEvalGraders(graders: readonly EvalGrader[], note: Note): GraderPlan[] {
  return graders.flatMap((grader) => planGrader(grader, note));
}

function planGrader(grader: EvalGrader, note: Note): GraderPlan[] {
  switch (grader.type) {
    case 'string_check':
    case 'text_similarity':
      return planComparison(grader, note);
    case 'label_model':
    case 'score_model':
      note(
        grader.path,
        'approximated',
        `an LLM judge per case (judge.rubric: the grader's prompt with the item's fields filled in, ${
          grader.type === 'label_model'
            ? `passing on the labels ${grader.passingLabels.join(', ')} of ${grader.labels.join(', ')}`
            : `passing at a score of ${grader.threshold ?? 'the grader threshold'}`
        }${grader.model ? `; judge.model ${grader.model}` : ''}); calltape's judge answers pass or fail on the rubric rather than a label or score`,
      );
      return [{ kind: 'judge', grader }];
    case 'python':
      note(
        grader.path,
        'not converted',
        `a Python grader runs OpenAI's sandbox code; port it to a code judge (judge: { code: ./judge.mjs } exporting judge(trajectory, testCase)). Its source:\n${grader.source}`,
      );
      return [];
    case 'multi': {
      const plans = planEvalGraders(grader.graders, note);
      note(
        grader.path,
        plans.length > 0 ? 'approximated' : 'not converted',
        `a multi grader: ${
          plans.length > 0
            ? 'each sub-grader above is checked on its own and all must pass'
            : 'no sub-grader converts'
        }; its formula ${JSON.stringify(grader.formula ?? '')} is not kept (calltape has no weighted formula over checks)`,
      );
      return plans;
    }
  }
}

function planComparison(
  grader: Extract<EvalGrader, { type: 'string_check' | 'text_similarity' }>,
  note: Note,
): GraderPlan[] {
  const inputCall = toolReference(grader.input);
  const referenceCall = toolReference(grader.reference);
  const call = inputCall ?? referenceCall;
  const expected = inputCall ? grader.reference : grader.input;
  if (!call || (inputCall && referenceCall) || readsSample(expected)) {
    note(
      grader.path,
      'not converted',
      readsSample(grader.input) || readsSample(grader.reference)
        ? "it compares the model's reply text (sample.output_text / output_json) or a whole sample field, not one tool call's name or arguments; calltape scores tool calls (write a judge rubric if the text matters)"
        : 'neither side reads the sample, so it checks nothing about the model',
    );
    return [];
  }
  const target = `sample.output_tools[${call.index}].function.${call.field}`;
  const position =
    call.index === 0
      ? 'the first call (multiple_calls: first)'
      : `call ${call.index + 1}, paired with expected_calls by best assignment rather than by position`;
  if (grader.type === 'text_similarity') {
    const rule = similarityRule(grader.metric, grader.threshold);
    note(
      grader.path,
      'approximated',
      call.field === 'name'
        ? `${grader.metric} on ${target}: the tool name is compared exactly (calltape matches tool names exactly or by glob)`
        : `${grader.metric} ≥ ${grader.threshold} over the whole arguments text as ${rule.matching_strategy} (threshold ${grader.threshold}) on each text argument of ${position}, other arguments exact${
            rule.matching_strategy === 'fuzzy' && grader.metric !== 'fuzzy_match'
              ? ` (${grader.metric} is a different measure from Levenshtein similarity)`
              : rule.matching_strategy === 'semantic'
                ? ' (embeddings come from the embedding model calltape is configured with, not text-embedding-3-large)'
                : ''
          }`,
    );
    return [{ kind: 'call', grader: grader.name, call, expected, how: 'similar', rule }];
  }
  const operation = grader.operation;
  if (call.field === 'arguments' && operation !== 'eq') {
    note(
      grader.path,
      'not converted',
      `${operation} on ${target} compares the arguments as text (${operation === 'ne' ? 'must differ' : 'contains'}); calltape compares arguments by value and has no such check`,
    );
    return [];
  }
  if ((operation === 'like' || operation === 'ilike') && call !== inputCall) {
    note(
      grader.path,
      'not converted',
      `${operation}: the expected text must contain the tool name, the reverse of a name match; calltape has no such check`,
    );
    return [];
  }
  const how = operation === 'eq' ? 'eq' : operation === 'ne' ? 'ne' : 'contains';
  note(
    grader.path,
    operation === 'eq' && call.field === 'name' && call.index === 0 ? 'converted' : 'approximated',
    call.field === 'arguments'
      ? `eq on ${target}: the expected text read as JSON arguments of ${position}, compared by value with extra_arguments: fail (key order and spacing no longer matter)`
      : how === 'eq'
        ? `eq on ${target}: expected_tool of ${position}`
        : how === 'ne'
          ? `ne on ${target}: never: [tool] (stricter: no call may use it, not only call ${call.index + 1})`
          : `${operation} on ${target}: expected_tool as the glob *name*${operation === 'ilike' ? ' (case-sensitive, where ilike ignores case)' : ''} for ${position}`,
  );
  return [{ kind: 'call', grader: grader.name, call, expected, how }];
}
