import type { JsonValue } from '../trace/trace.js';

/** A topic of a tool's tree with its narrower subtopics. */
export interface TopicNode {
  readonly topic: string;
  readonly subtopics: readonly string[];
}

/** A case as the generator wrote it, before checks and deduplication. */
export interface GeneratedPrompt {
  readonly prompt: string;
  /** positive: the tool should be called; negative: it should not. */
  readonly kind: 'positive' | 'negative';
  readonly guideline: string;
  /** Positive cases: the arguments the prompt determines (possibly none). */
  readonly arguments: { readonly [name: string]: JsonValue };
}

/** The generator answered something other than the JSON it was asked for. */
export class GeneratorAnswerError extends Error {
  override readonly name = 'GeneratorAnswerError';
}

/** The topic tree in a generator answer; throws GeneratorAnswerError naming what is wrong. */
export function topicsOf(text: string): TopicNode[] {
  const topics = field(parseAnswer(text), 'topics', text);
  if (!Array.isArray(topics) || topics.length === 0)
    throw new GeneratorAnswerError(`"topics" is not a non-empty list: ${excerpt(text)}`);
  return topics.map((entry, index) => {
    const topic = isObject(entry) ? entry['topic'] : undefined;
    const subtopics = isObject(entry) ? (entry['subtopics'] ?? []) : undefined;
    if (typeof topic !== 'string' || topic.trim() === '')
      throw new GeneratorAnswerError(
        `topics[${index}].topic is not a non-empty string: ${excerpt(text)}`,
      );
    if (
      !Array.isArray(subtopics) ||
      !subtopics.every((item) => typeof item === 'string' && item.trim() !== '')
    )
      throw new GeneratorAnswerError(
        `topics[${index}].subtopics is not a list of non-empty strings: ${excerpt(text)}`,
      );
    return { topic: topic.trim(), subtopics: subtopics.map((item) => (item as string).trim()) };
  });
}

/** The cases in a generator answer; throws GeneratorAnswerError naming what is wrong. */
export function promptsOf(text: string): GeneratedPrompt[] {
  const cases = field(parseAnswer(text), 'cases', text);
  if (!Array.isArray(cases))
    throw new GeneratorAnswerError(`"cases" is not a list: ${excerpt(text)}`);
  return cases.map((entry, index) => {
    if (!isObject(entry))
      throw new GeneratorAnswerError(`cases[${index}] is not an object: ${excerpt(text)}`);
    const { prompt, kind, guideline } = {
      prompt: entry['prompt'],
      kind: entry['kind'],
      guideline: entry['guideline'] ?? '',
    };
    const args = entry['arguments'] ?? {};
    if (typeof prompt !== 'string' || prompt.trim() === '')
      throw new GeneratorAnswerError(
        `cases[${index}].prompt is not a non-empty string: ${excerpt(text)}`,
      );
    if (kind !== 'positive' && kind !== 'negative')
      throw new GeneratorAnswerError(
        `cases[${index}].kind is not "positive" or "negative": ${excerpt(text)}`,
      );
    if (typeof guideline !== 'string')
      throw new GeneratorAnswerError(`cases[${index}].guideline is not a string: ${excerpt(text)}`);
    if (!isObject(args))
      throw new GeneratorAnswerError(
        `cases[${index}].arguments is not an object: ${excerpt(text)}`,
      );
    return { prompt: prompt.trim(), kind, guideline, arguments: kind === 'positive' ? args : {} };
  });
}

function parseAnswer(text: string): unknown {
  try {
    // Models sometimes fence JSON even when asked not to.
    return JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, '')) as unknown;
  } catch {
    throw new GeneratorAnswerError(`the answer is not JSON: ${excerpt(text)}`);
  }
}

function field(answer: unknown, name: string, text: string): unknown {
  if (!isObject(answer) || !Object.hasOwn(answer, name))
    throw new GeneratorAnswerError(`the answer has no "${name}": ${excerpt(text)}`);
  return answer[name];
}

function isObject(value: unknown): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function excerpt(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 200)}…`;
}
