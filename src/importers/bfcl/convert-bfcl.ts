import { setOwn } from '../../scoring/own.js';
import type { JsonValue } from '../../trace/trace.js';
import type { ImportedSuite, ImportNote } from '../import-types.js';
import { bfclExpectedCall } from './bfcl-expected-call.js';
import { bfclTool, toolNameOf } from './bfcl-tool.js';
import type { BfclAnswer, BfclQuestion } from './read-bfcl-lines.js';

type JsonObject = { readonly [key: string]: JsonValue };
type Writable = { [key: string]: JsonValue };

/** How BFCL checks a category, read from a question id (`live_multiple_12-4-1` → `live_multiple`). */
export type BfclCheck = 'ast' | 'irrelevance' | 'relevance' | 'source text' | 'executed';

export function categoryOf(id: string): string {
  return id.replace(/_\d+(?:-\d+)*$/, '');
}

export function checkOf(category: string): BfclCheck {
  if (/multi_turn|memory|web_search|format_sensitivity/.test(category)) return 'executed';
  if (/java/.test(category)) return 'source text';
  if (category.includes('irrelevance')) return 'irrelevance';
  if (category.includes('relevance')) return 'relevance';
  return 'ast';
}

/** Direct mode needs a model to ask; BFCL's own figures for this one use the same tool names. */
const defaultModel = 'gpt-4o-2024-11-20';

/** Why a category is not converted, by how BFCL checks it. */
const notConverted: { readonly [check in 'source text' | 'executed']: string } = {
  'source text':
    "BFCL checks Java and JavaScript answers as source text (each argument a string its type converters parse as Java or JavaScript); calltape compares JSON values, so the checker's verdicts cannot be reproduced",
  executed:
    'BFCL runs these categories against its own simulated APIs (multi-turn state, memory, web search) or varies the prompt format; calltape has no counterpart of those back ends',
};

/**
 * A calltape suite from a BFCL category file and its possible answers, for direct mode: each
 * question's messages as the case's `messages`, every function of the file as the suite's
 * `tools`, each possible answer as expected calls (`expected_calls` for parallel answers; any
 * order, one call per expected call), arguments not in the answer failing as in BFCL
 * (`defaults.extra_arguments: fail`). Irrelevance questions expect no call, relevance ones any.
 * Every question gets a note; the same input gives the same suite, key for key.
 */
export function convertBfcl(
  questions: readonly BfclQuestion[],
  answers: ReadonlyMap<string, BfclAnswer> | undefined,
  file: string,
  name: string,
): ImportedSuite {
  const notes: ImportNote[] = [];
  const tools = new Map<
    string,
    { readonly text: string; readonly tool: JsonObject; readonly by: string }
  >();
  const cases: JsonValue[] = [];
  for (const question of questions) {
    const item = `${question.where} (${question.id})`;
    const note = (outcome: ImportNote['outcome'], detail: string): void => {
      notes.push({ item, outcome, detail });
    };
    const check = checkOf(categoryOf(question.id));
    if (check === 'source text' || check === 'executed') {
      note('not converted', notConverted[check]);
      continue;
    }
    if (question.turns.length !== 1) {
      note(
        'not converted',
        `${question.turns.length} user turns: BFCL checks multi-turn questions by executing them`,
      );
      continue;
    }
    const answer = answers?.get(question.id);
    if (check === 'ast' && answer === undefined) {
      note('not converted', 'no possible answer has this id');
      continue;
    }
    const approximations: string[] = [];
    const ownSchemas: Writable = {};
    for (const fn of question.functions) {
      const tool = bfclTool(fn);
      const text = JSON.stringify(tool);
      const toolName = toolNameOf(fn.name);
      const known = tools.get(toolName);
      if (known === undefined) tools.set(toolName, { text, tool, by: question.id });
      else if (known.text !== text)
        approximations.push(
          `the model is offered ${toolName} as ${known.by} defines it (one tool per name in a suite)`,
        );
    }
    const testCase: Writable = {
      test_id: question.id,
      messages: question.turns[0] as readonly JsonObject[] as JsonValue[],
    };
    if (check === 'irrelevance') {
      testCase['expected_tool'] = null;
      note('converted', 'BFCL passes the answer when it calls no function: expected_tool null');
    } else if (check === 'relevance') {
      Object.assign(testCase, {
        expected_tool: '*',
        extra_arguments: 'ignore',
        multiple_calls: 'best',
      });
      // Any call counts, whatever its arguments: no schema check either.
      for (const fn of question.functions)
        setOwn(ownSchemas, toolNameOf(fn.name), { type: 'object' });
      note(
        'converted',
        'BFCL passes the answer when it calls any function: expected_tool "*" with any arguments',
      );
    } else {
      const fnOf = (callName: string) => question.functions.find((fn) => fn.name === callName);
      const calls = (answer as BfclAnswer).calls.map((call) => {
        const expected = bfclExpectedCall(call, fnOf(call.name));
        approximations.push(...expected.approximations);
        if (fnOf(call.name) === undefined)
          approximations.push(
            `the answer calls ${call.name}, which the question does not offer (BFCL fails every answer then)`,
          );
        return expected.call;
      });
      // BFCL never validates arguments against the function's schema (enums, defaults, bounds): its tools score with an open one.
      for (const call of (answer as BfclAnswer).calls)
        setOwn(ownSchemas, toolNameOf(call.name), { type: 'object' });
      if (calls.length === 1) Object.assign(testCase, calls[0]);
      else if (calls.length === 0) testCase['expected_tool'] = null;
      else testCase['expected_calls'] = calls;
      const what =
        calls.length > 1
          ? `${calls.length} calls in any order as expected_calls`
          : 'one call as expected_tool';
      if (approximations.length === 0)
        note(
          'converted',
          `${what}; each possible answer list as any_of (BFCL's "" as the omitted marker), strings as loose_string`,
        );
    }
    if (Object.keys(ownSchemas).length > 0) testCase['schemas'] = ownSchemas;
    if (approximations.length > 0) note('approximated', approximations.join('; '));
    cases.push(testCase);
  }
  if (answers !== undefined) {
    const asked = new Set(questions.map((question) => question.id));
    for (const answer of answers.values())
      if (!asked.has(answer.id))
        notes.push({
          item: `${answer.where} (${answer.id})`,
          outcome: 'not converted',
          detail: 'a possible answer for a question the category file does not hold',
        });
  }
  notes.push({
    item: '(suite)',
    outcome: 'approximated',
    detail: `the model: BFCL evaluates the model you name; the suite names ${defaultModel} (an OpenAI model, whose tool names BFCL writes with _ for .) for direct mode to send each question's messages to: change model: to yours. Every function of the file is offered with every question (a suite has one tool list; BFCL offers only the question's own), so a model sees more distractors; OpenAI accepts at most 128 tools a request: split larger files`,
  });
  const suite: Writable = {
    name,
    description: `Imported from the BFCL category file ${file} by calltape import bfcl`,
    model: defaultModel,
    ...(tools.size > 0 ? { tools: [...tools.values()].map((entry) => entry.tool) } : {}),
    defaults: { extra_arguments: 'fail' },
    cases,
  };
  return { suite, notes };
}
