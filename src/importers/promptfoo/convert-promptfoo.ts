import { CalltapeError } from '../../errors.js';
import type { JsonValue } from '../../trace/trace.js';
import type { ImportedSuite, ImportNote, SourceFile } from '../import-types.js';
import { checksSomething, emptyParts, type CaseParts } from './case-parts.js';
import { convertAssertion } from './convert-assertion.js';
import { judgeModule } from './judge-module.js';
import type { PromptfooPrompt, PromptfooProvider, SetupSkip } from './read-promptfoo-setup.js';
import type { PromptfooTest, SkippedTest } from './read-promptfoo-tests.js';
import { renderPrompt } from './render-prompt.js';

/** A promptfoo config as read: what calltape converts from it. */
export interface PromptfooSource {
  readonly file: string;
  readonly name: string;
  readonly description: string | undefined;
  readonly prompts: readonly PromptfooPrompt[];
  readonly provider: PromptfooProvider | undefined;
  readonly tests: readonly PromptfooTest[];
  readonly skipped: readonly (SkippedTest | SetupSkip)[];
}

/** Where the judge modules are written, beside the suite. */
const judgeFolder = 'promptfoo-judges';

/**
 * A calltape suite from a promptfoo config: one case per test and prompt (promptfoo runs every
 * test against every prompt), the prompt rendered with the test's vars; an OpenAI provider's
 * model and tools make it a direct-mode suite. Every test and assertion gets a note.
 */
export function convertPromptfoo(source: PromptfooSource): ImportedSuite {
  const notes: ImportNote[] = [];
  const note = (item: string, outcome: ImportNote['outcome'], detail: string): void => {
    notes.push({ item, outcome, detail });
  };
  for (const skip of source.skipped) note(skip.where, 'not converted', skip.why);
  const provider = source.provider;
  const toolNames = (provider?.tools ?? []).flatMap((tool) => {
    const fn = (tool as { function?: { name?: unknown } }).function;
    return typeof fn?.name === 'string' ? [fn.name] : [];
  });
  describeProvider(provider, note);
  const prompts =
    source.prompts.length > 0
      ? source.prompts
      : [{ where: '(prompts)', template: '{{prompt}}', chat: false }];
  const cases: JsonValue[] = [];
  const files: SourceFile[] = [];
  const ids = new Set<string>();
  const judgePaths = new Set<string>();
  source.tests.forEach((test, index) => {
    for (const item of test.unsupported)
      note(item, 'not converted', 'a promptfoo test field with no calltape counterpart');
    if (test.threshold !== undefined)
      note(
        `${test.where}.threshold`,
        'approximated',
        `every converted check must pass; promptfoo passes the test when its assertions' weighted mean score reaches ${test.threshold}`,
      );
    const parts = emptyParts();
    for (const assertion of test.assert) {
      const outcome = convertAssertion(assertion, parts, { toolNames });
      const weight =
        assertion.weight !== undefined &&
        assertion.weight !== 1 &&
        assertion.weight !== 0 &&
        outcome.outcome !== 'not converted'
          ? `; weight ${assertion.weight}: calltape has no check weights, every check counts alike`
          : '';
      const metric =
        assertion.metric !== undefined
          ? `; metric ${JSON.stringify(assertion.metric)}: promptfoo tallies it by that name, calltape reports each check per case`
          : '';
      note(
        assertion.where,
        weight !== '' && outcome.outcome === 'converted' ? 'approximated' : outcome.outcome,
        `${outcome.detail}${weight}${metric}`,
      );
    }
    if (!checksSomething(parts)) {
      note(
        test.where,
        'not converted',
        'no assertion converted, so there is nothing to check: calltape needs at least one check per case (promptfoo only shows the answer)',
      );
      return;
    }
    const base = uniqueId(test.description ?? `test ${index + 1}`, ids);
    prompts.forEach((prompt, position) => {
      const testId = prompts.length > 1 ? uniqueId(`${base} (prompt ${position + 1})`, ids) : base;
      const rendered = renderPrompt(
        prompt.template,
        test.vars,
        `${prompt.where} with ${test.where}.vars`,
      );
      const judge =
        parts.judges.length > 0
          ? `${uniqueId(`${judgeFolder}/${slug(testId)}`, judgePaths)}.mjs`
          : undefined;
      if (judge !== undefined)
        files.push({ path: judge, text: judgeModule(source.file, testId, parts.judges) });
      cases.push(caseOf(testId, rendered, prompt, parts, judge));
    });
    note(
      test.where,
      'converted',
      `${prompts.length > 1 ? `${prompts.length} cases (one per prompt)` : 'a case'}: ${base}`,
    );
  });
  const suite: { [key: string]: JsonValue } = {
    name: source.name,
    description: `Imported from the promptfoo config ${source.file} by calltape import promptfoo${source.description ? `: ${source.description}` : ''}`,
    ...(provider?.model !== undefined ? { model: provider.model } : {}),
    ...(provider !== undefined && provider.tools.length > 0 ? { tools: [...provider.tools] } : {}),
    cases,
  };
  return { suite, notes, ...(files.length > 0 ? { files } : {}) };
}

type Note = (item: string, outcome: ImportNote['outcome'], detail: string) => void;

function describeProvider(provider: PromptfooProvider | undefined, note: Note): void {
  if (provider === undefined) {
    note(
      '(providers)',
      'not converted',
      'no provider: give the suite model and tools (direct mode) or agent.command',
    );
    return;
  }
  if (provider.model !== undefined)
    note(
      provider.where,
      'converted',
      `direct mode: model ${provider.model}${provider.tools.length > 0 ? ` with its ${provider.tools.length} tool(s) as the suite's tools` : ''}`,
    );
  else
    note(
      provider.where,
      'not converted',
      `${provider.id} runs an agent calltape cannot start from here: give agent.command (your agent behind calltape's conversation protocol) before calltape test`,
    );
  if (provider.toolChoice !== undefined)
    note(
      `${provider.where}.config.tool_choice`,
      'not converted',
      `tool_choice ${JSON.stringify(provider.toolChoice)}: calltape's direct mode sends no tool_choice, so the model chooses (auto)`,
    );
}

function caseOf(
  testId: string,
  rendered: string,
  prompt: PromptfooPrompt,
  parts: CaseParts,
  judge: string | undefined,
): JsonValue {
  const messages = prompt.chat ? chatMessages(rendered, prompt.where) : undefined;
  const expect: { [key: string]: JsonValue } = {};
  if (parts.calls.length > 0) {
    expect['calls'] = parts.calls.map((call) =>
      call.fields.size === 0 ? call.tool : { tool: call.tool, ...Object.fromEntries(call.fields) },
    );
    expect['mode'] = parts.mode ?? 'all';
  }
  for (const [key, value] of parts.expect) expect[key] = value;
  // Arguments say what the call holds; without a name to expect, any tool's call may hold them.
  const tool = parts.expectedTool ?? (parts.arguments.size > 0 ? ['*'] : undefined);
  return {
    test_id: testId,
    ...(messages === undefined ? { prompt: rendered } : { messages }),
    ...(tool !== undefined ? { expected_tool: tool.length === 1 ? (tool[0] ?? '') : tool } : {}),
    ...(tool !== undefined && parts.arguments.size > 0
      ? { arguments: Object.fromEntries(parts.arguments) }
      : {}),
    ...(tool !== undefined && parts.rules.size > 0
      ? { rules: Object.fromEntries(parts.rules) }
      : {}),
    ...(tool !== undefined && parts.extraArguments !== undefined
      ? { extra_arguments: parts.extraArguments }
      : {}),
    ...(tool !== undefined && parts.multipleCalls !== undefined
      ? { multiple_calls: parts.multipleCalls }
      : {}),
    ...(Object.keys(expect).length > 0 ? { expect } : {}),
    ...(parts.never.length > 0 ? { never: [...parts.never] } : {}),
    ...(judge !== undefined ? { judge: { code: `./${judge}` } } : {}),
  };
}

function chatMessages(rendered: string, where: string): JsonValue[] {
  try {
    const messages = JSON.parse(rendered) as JsonValue;
    if (Array.isArray(messages)) return messages;
  } catch {
    // Reported below: a chat prompt that no longer parses once rendered.
  }
  throw new CalltapeError(
    'CONFIG_INVALID',
    `${where}: the chat prompt is not a JSON list of messages once rendered`,
  );
}

function uniqueId(wanted: string, taken: Set<string>): string {
  let id = wanted.trim() || 'test';
  for (let n = 2; taken.has(id); n++) id = `${wanted.trim() || 'test'}-${n}`;
  taken.add(id);
  return id;
}

/** A file name for a case id: letters, digits, `-` and `_` only. */
function slug(id: string): string {
  return (
    id
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'case'
  );
}
