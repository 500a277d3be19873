import fnv1a from '@sindresorhus/fnv1a';
import { levenshteinRatio } from '../scoring/match/match-value.js';
import type { ToolGuidelines } from '../guidelines/guidelines.js';
import type { JsonValue } from '../trace/trace.js';
import { normalisePrompt } from './dedupe-prompts.js';
import type { GeneratedPrompt } from './generator-answers.js';

/** A generated prompt with where it came from in the topic tree. */
export interface TopicPrompt extends GeneratedPrompt {
  readonly tool: string;
  readonly topic: string;
}

/** What every draft of one generation shares in its provenance. */
export interface DraftOrigin {
  readonly generator: string;
  /** The guidelines file, relative to the suite. */
  readonly guidelinesFile: string;
}

/**
 * A suite case (config/suite.schema.json) for a generated prompt, marked `review: pending`:
 * a positive case expects the tool (and the arguments the prompt determines, other arguments
 * ignored); a negative case forbids the tool (`never`), since the agent may rightly answer with
 * another tool. The id is a hash of the normalised prompt, so it is the same on every run.
 */
export function draftCase(
  prompt: TopicPrompt,
  guidelines: ToolGuidelines,
  origin: DraftOrigin,
): { [field: string]: JsonValue } {
  const test_id = `gen-${prompt.tool}-${fnv1a(normalisePrompt(prompt.prompt)).toString(16).padStart(8, '0').slice(-8)}`;
  const guideline = nearestGuideline(
    prompt.guideline,
    prompt.kind === 'positive' ? guidelines.should_use : guidelines.should_not_use,
  );
  const provenance = {
    source: 'generated',
    tool: prompt.tool,
    kind: prompt.kind,
    guideline,
    topic: prompt.topic,
    generator: origin.generator,
    guidelines_file: origin.guidelinesFile,
  };
  if (prompt.kind === 'negative')
    return { test_id, prompt: prompt.prompt, never: [prompt.tool], review: 'pending', provenance };
  const hasArguments = Object.keys(prompt.arguments).length > 0;
  return {
    test_id,
    prompt: prompt.prompt,
    expected_tool: prompt.tool,
    ...(hasArguments ? { arguments: prompt.arguments, extra_arguments: 'ignore' } : {}),
    review: 'pending',
    provenance,
  };
}

/**
 * The guideline a model said it exercised, snapped to the closest one of the list it belongs to:
 * models paraphrase when asked to copy, and provenance should name a guideline that exists.
 */
export function nearestGuideline(given: string, list: readonly string[]): string {
  let best = given;
  let score = -1;
  for (const candidate of list) {
    const similarity = levenshteinRatio(normalisePrompt(given), normalisePrompt(candidate));
    if (similarity > score) [best, score] = [candidate, similarity];
  }
  return best;
}
