import type { JsonValue } from '../../trace/trace.js';
import type { ImportedSuite, ImportNote } from '../import-types.js';
import { toolsFromCalls } from '../tools-from-calls.js';
import type { DeepEvalGolden, DeepEvalToolCall } from './read-deepeval-dataset.js';
import type { ToolCorrectnessOptions } from './read-tool-correctness.js';

type Note = (item: string, outcome: ImportNote['outcome'], detail: string) => void;

/**
 * A calltape suite from a DeepEval dataset and ToolCorrectnessMetric's options: each golden with
 * an input a case, its expected_tools the case's `expect.calls`, in the mode and with the pass
 * threshold that mean what the metric's options mean. Every golden gets a note.
 */
export function convertDeepEval(
  goldens: readonly DeepEvalGolden[],
  options: ToolCorrectnessOptions,
  files: { readonly dataset: string; readonly metric: string | undefined },
  suiteName: string,
): ImportedSuite {
  const notes: ImportNote[] = [];
  const note: Note = (item, outcome, detail) => notes.push({ item, outcome, detail });
  const mode = options.exactMatch ? 'exact' : options.ordering ? 'ordered' : 'all';
  describeOptions(options, mode, files.metric, note);
  const names = new Set<string>();
  const cases = goldens.flatMap((golden, index) => {
    const where = `${files.dataset}: ${golden.path}`;
    if (golden.conversational || golden.input === undefined) {
      note(
        where,
        'not converted',
        golden.conversational
          ? 'a conversational golden (scenario, turns): ToolCorrectnessMetric scores single-turn test cases; write it as a case with turns'
          : 'no input text to send',
      );
      return [];
    }
    const id =
      golden.name !== undefined && !names.has(golden.name) ? golden.name : `golden-${index + 1}`;
    names.add(id);
    return [convertGolden(golden, id, where, options, mode, note)];
  });
  const tools = toolsFromCalls(
    goldens.flatMap((golden) =>
      golden.conversational || golden.input === undefined
        ? []
        : (golden.expectedTools ?? []).map((call) => ({
            name: call.name,
            args: call.inputParameters,
          })),
    ),
  );
  if (tools.length > 0)
    note(
      '(tools)',
      'approximated',
      `DeepEval datasets declare no tools: ${tools.length} tool(s) declared from expected_tools' names and input parameter names, untyped, so direct mode can offer them; paste in your real schemas`,
    );
  note(
    '(suite)',
    'not converted',
    'the agent: DeepEval calls your app itself; give agent.command (your agent), or model and tools for direct mode, before calltape test',
  );
  return {
    suite: {
      name: suiteName,
      description: `Imported from the DeepEval dataset ${files.dataset} by calltape import deepeval`,
      ...(tools.length > 0 ? { tools } : {}),
      cases,
    },
    notes,
  };
}

function describeOptions(
  options: ToolCorrectnessOptions,
  mode: string,
  file: string | undefined,
  note: Note,
): void {
  const item = file ?? '(no --metric)';
  const threshold =
    mode === 'exact'
      ? 'should_exact_match scores 0 or 1, so no threshold is needed'
      : options.threshold >= 1
        ? 'threshold 1: every expected tool must be met'
        : `threshold ${options.threshold} as expect.pass_threshold (DeepEval's score is the fraction of expected tools met, as calltape's partial score is)`;
  const how =
    mode === 'exact'
      ? 'should_exact_match as expect.mode exact (the same calls in the same order, nothing else)'
      : mode === 'ordered'
        ? 'should_consider_ordering as expect.mode ordered (approximated: DeepEval scores the longest common subsequence, calltape the expected calls met in order, other calls allowed between)'
        : 'the default (names, any order, extra calls allowed) as expect.mode all, each expected tool paired with its own call as DeepEval pairs them';
  note(
    item,
    mode === 'ordered' || (options.inputParameters && mode !== 'exact')
      ? 'approximated'
      : 'converted',
    `${file ? '' : "ToolCorrectnessMetric's defaults apply (pass --metric options.json to give its options); "}${how}; ${threshold}${
      options.inputParameters
        ? `; input_parameters as each call's arguments with extra_arguments: fail${mode === 'exact' ? '' : ' (DeepEval gives partial credit for partly matching parameters; calltape meets a call or not)'}`
        : ''
    }`,
  );
  if (options.output)
    note(
      item,
      'not converted',
      'output in evaluation_params: calltape checks the calls the agent makes, not what its tools return (mock the tools to fix their output)',
    );
}

function convertGolden(
  golden: DeepEvalGolden,
  id: string,
  where: string,
  options: ToolCorrectnessOptions,
  mode: string,
  note: Note,
): JsonValue {
  if (golden.otherFields.length > 0)
    note(
      where,
      'not converted',
      `${golden.otherFields.join(', ')}: read by DeepEval's other metrics (answer relevancy, faithfulness, …), not by tool correctness`,
    );
  if (golden.toolsCalled > 0)
    note(
      `${where}.tools_called`,
      'not converted',
      "a recorded run's calls; calltape records and scores its own run",
    );
  const expected = golden.expectedTools;
  if (expected === undefined) {
    note(where, 'converted', `as case ${id} with no tool check (the golden has no expected_tools)`);
    return { test_id: id, prompt: golden.input ?? '' };
  }
  if (expected.length === 0) {
    note(
      where,
      'converted',
      `as case ${id}: expected_tools is empty, so no tool may be called (never: ["*"])`,
    );
    return { test_id: id, prompt: golden.input ?? '', never: ['*'] };
  }
  note(where, 'converted', `as case ${id}: ${expected.length} expected tool(s) as expect.calls`);
  return {
    test_id: id,
    prompt: golden.input ?? '',
    expect: {
      calls: expected.map((call) => callOf(call, options)),
      mode,
      ...(mode !== 'exact' && options.threshold < 1 ? { pass_threshold: options.threshold } : {}),
    },
  };
}

function callOf(call: DeepEvalToolCall, options: ToolCorrectnessOptions): JsonValue {
  if (!options.inputParameters || call.inputParameters === undefined) return call.name;
  return { tool: call.name, arguments: call.inputParameters, extra_arguments: 'fail' };
}
