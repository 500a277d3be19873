import type { ToolGuidelines } from '../guidelines/guidelines.js';
import { jsonAnswerRequest, type JsonAnswerModel } from '../providers/json-answer-request.js';
import type { JsonValue } from '../trace/trace.js';

/** The generator model and how it is asked. */
export type GeneratorModel = JsonAnswerModel;

/** One tool as the generator is shown it: its guidelines and, when known, its definition. */
export interface ToolBrief {
  readonly name: string;
  readonly description: string;
  /** The tool's parameter JSON Schema; `{}` when only the name is known. */
  readonly parameters: JsonValue;
  readonly guidelines: ToolGuidelines;
}

const instructions = [
  'You write test cases for an AI agent that can call tools. Every case is one message a real user might send the agent.',
  'Answer with one JSON object and nothing else, in exactly the shape the request asks for.',
].join('\n');

/**
 * The request for a tool's topic tree: `breadth` topics, each with subtopics, grown from the
 * guidelines' own topics when they give some. A pure function of its inputs (no ids, no
 * timestamps), so a second run sends the same bytes and replays from the cassette.
 */
export function topicTreeRequest(
  generator: GeneratorModel,
  tool: ToolBrief,
  agent: string,
  breadth: number,
): JsonValue {
  const seeds = tool.guidelines.topics;
  const content = [
    toolSection(tool, agent),
    seeds.length > 0
      ? `Start from these topics (keep them, refine them): ${seeds.map((topic) => JSON.stringify(topic)).join(', ')}.`
      : '',
    `List ${breadth} distinct topics users bring to this agent where the tool matters, each with 2 to 4 narrower subtopics.`,
    'Shape: {"topics": [{"topic": "…", "subtopics": ["…", "…"]}]}',
  ];
  return jsonAnswerRequest(generator, instructions, content.filter(Boolean).join('\n\n'));
}

/**
 * The request for the cases of one subtopic: `positive` prompts for which the agent should call
 * the tool (each naming the should-use guideline it exercises and the arguments the prompt
 * determines) and `negative` prompts for which it should not (each naming its should-not-use
 * guideline).
 */
export function casesRequest(
  generator: GeneratorModel,
  tool: ToolBrief,
  agent: string,
  topic: string,
  counts: { readonly positive: number; readonly negative: number },
): JsonValue {
  const content = [
    toolSection(tool, agent),
    `Topic: ${topic}`,
    `Write ${counts.positive} user messages for which the agent SHOULD call "${tool.name}" and ${counts.negative} for which it should NOT call it (it may answer directly or use another tool).`,
    'Make them varied and realistic: different wording, length and detail; no two alike. Negative messages may sit close to the topic but fall under a should-not-use guideline.',
    `"guideline" is the guideline a message exercises, copied word for word from the lists above. "arguments" (positive messages only) holds the arguments of "${tool.name}" that the message itself determines; leave out any it does not.`,
    'Shape: {"cases": [{"prompt": "…", "kind": "positive" or "negative", "guideline": "…", "arguments": {…}}]}',
  ];
  return jsonAnswerRequest(generator, instructions, content.join('\n\n'));
}

function toolSection(tool: ToolBrief, agent: string): string {
  const lines = [
    agent === '' ? '' : `The agent: ${agent}`,
    `The tool "${tool.name}"${tool.description === '' ? '' : `: ${tool.description}`}`,
    `Its parameters (JSON Schema): ${JSON.stringify(tool.parameters)}`,
  ];
  if (tool.guidelines.should_use.length > 0)
    lines.push(
      'The agent should call it for:',
      ...tool.guidelines.should_use.map((item) => `- ${item}`),
    );
  if (tool.guidelines.should_not_use.length > 0)
    lines.push(
      'The agent should NOT call it for:',
      ...tool.guidelines.should_not_use.map((item) => `- ${item}`),
    );
  return lines.filter(Boolean).join('\n');
}
