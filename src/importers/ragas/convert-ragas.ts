import type { JsonValue } from '../../trace/trace.js';
import type { ImportedSuite, ImportNote } from '../import-types.js';
import { toolsFromCalls } from '../tools-from-calls.js';
import type { RagasSample } from './read-ragas-samples.js';

type Note = (item: string, outcome: ImportNote['outcome'], detail: string) => void;

/**
 * A calltape suite from Ragas samples scored by ToolCallAccuracy: each sample a case (its human
 * messages the user turns, one turn a plain prompt), its reference_tool_calls the case's
 * `expect.calls` over the whole conversation — strict order as mode exact, any order as mode
 * unordered, arguments compared on the reference's keys only, as Ragas does. Every sample gets a
 * note.
 */
export function convertRagas(
  samples: readonly RagasSample[],
  strictOrder: boolean,
  files: { readonly samples: string; readonly metric: string | undefined },
  suiteName: string,
): ImportedSuite {
  const notes: ImportNote[] = [];
  const note: Note = (item, outcome, detail) => notes.push({ item, outcome, detail });
  const mode = strictOrder ? 'exact' : 'unordered';
  note(
    files.metric ?? '(no --metric)',
    'approximated',
    `${files.metric ? '' : 'ToolCallAccuracy\'s default applies (strict_order true; pass --metric with {"strict_order": false} for any order); '}strict_order ${strictOrder} as expect.mode ${mode} (${
      strictOrder
        ? 'the same tool names in the same order, nothing else'
        : 'the same tool names one-to-one in any order, nothing else'
    }); each reference call's arguments compared on the reference's keys only (others ignored), as Ragas does, by value where Ragas compares str() forms. Ragas reports a score from 0 to 1 with no pass mark; calltape passes a case when every reference call is met (lower expect.pass_threshold to forgive)`,
  );
  const cases = samples.flatMap((sample, index) => {
    const where = `${files.samples}: ${sample.path}`;
    const id = `sample-${index + 1}`;
    if (sample.userTurns.length === 0) {
      note(where, 'not converted', 'no human message to send');
      return [];
    }
    for (const field of sample.otherFields)
      note(
        `${where}.${field}`,
        'not converted',
        "read by Ragas's other metrics (topic adherence, goal accuracy, …), not by ToolCallAccuracy",
      );
    if (sample.recordedCalls > 0)
      note(
        `${where}.user_input`,
        'not converted',
        `the ${sample.recordedCalls} tool call(s) of its AI messages are the run Ragas scored; calltape records and scores its own run`,
      );
    const said =
      sample.userTurns.length === 1
        ? { prompt: sample.userTurns[0] ?? '' }
        : { turns: sample.userTurns.map((user) => ({ user })) };
    const references = sample.referenceToolCalls;
    note(
      where,
      'converted',
      `as case ${id}${sample.userTurns.length > 1 ? ` (${sample.userTurns.length} user turns; the reference calls are checked over the whole conversation, as Ragas does)` : ''}${
        references === undefined ? ', with no tool check (no reference_tool_calls)' : ''
      }`,
    );
    const expectation: JsonValue =
      references === undefined
        ? null
        : references.length === 0
          ? ['*']
          : {
              calls: references.map((call) =>
                Object.keys(call.args).length > 0
                  ? { tool: call.name, arguments: call.args }
                  : call.name,
              ),
              mode,
            };
    return [
      {
        test_id: id,
        ...said,
        ...(Array.isArray(expectation)
          ? { never: expectation }
          : expectation === null
            ? {}
            : { expect: expectation }),
      },
    ];
  });
  const tools = toolsFromCalls(samples.flatMap((sample) => sample.referenceToolCalls ?? []));
  if (tools.length > 0)
    note(
      '(tools)',
      'approximated',
      `Ragas declares no tools: ${tools.length} tool(s) declared from the reference calls' names and argument names, untyped, so direct mode can offer them; paste in your real schemas`,
    );
  note(
    '(suite)',
    'not converted',
    'the agent: Ragas scores a recorded conversation; give agent.command (your agent behind the conversation protocol), or model and tools for direct mode, before calltape test',
  );
  return {
    suite: {
      name: suiteName,
      description: `Imported from the Ragas samples ${files.samples} by calltape import ragas`,
      ...(tools.length > 0 ? { tools } : {}),
      cases,
    },
    notes,
  };
}
