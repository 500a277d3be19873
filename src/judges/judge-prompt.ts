import { jsonAnswerRequest } from '../providers/json-answer-request.js';
import { renderGuidelines } from '../guidelines/render-guidelines.js';
import type { RunView } from '../ratings/run-view.js';
import type { JsonValue } from '../trace/trace.js';
import type { LlmJudgeDefinition } from './judge-definition.js';

/** The system prompt: what to judge and the one JSON shape to answer in. */
export const judgeInstructions = [
  "You judge whether an AI agent used its tools well in one run. You are given what good tool use means here, the tools the model was offered, and the whole run: the conversation, every turn's tool calls with their arguments and results, and the final answer.",
  'Decide strictly from the run. Answer with one JSON object and nothing else:',
  '{"pass": true or false, "score": a number from 0 to 1, "reason": "one sentence naming the deciding evidence"}',
].join('\n');

/**
 * The user message for one run: the criteria (rubric, or the guidelines of the desired-behaviour
 * template), the tools offered and the run as stable JSON. It holds nothing that differs between
 * machines or runs (no run reference, no path, no time), so the same run gives the same bytes
 * and a recorded verdict replays.
 */
export function judgePromptFor(judge: LlmJudgeDefinition, view: RunView): string {
  const criteria =
    judge.prompt.kind === 'rubric'
      ? `Rubric:\n${judge.prompt.rubric}`
      : `Desired behaviour:\n${renderGuidelines(judge.prompt.guidelines)}`;
  const tools =
    view.tools
      .map(
        (tool) =>
          `- ${tool.name}${tool.description ? `: ${tool.description}` : ''}\n  parameters: ${JSON.stringify(tool.parameters)}`,
      )
      .join('\n') || '(no tools were offered)';
  const run = {
    conversation: view.conversation,
    turns: view.turns,
    final_answer: view.finalAnswer,
  };
  return `${criteria}\n\nTools offered to the model:\n${tools}\n\nRun:\n${JSON.stringify(run, null, 1)}`;
}

/** The request body on the judge's wire: a JSON answer asked for, temperature as configured. */
export function judgeRequestBody(judge: LlmJudgeDefinition, content: string): JsonValue {
  return jsonAnswerRequest(judge, judgeInstructions, content);
}
