import type { CallPolicy } from './policy-types.js';
import { sampled } from './sample.js';

/** An arguments policy with semantic rules, and the texts those rules compare with. */
export interface SemanticRules {
  readonly policy: CallPolicy;
  readonly texts: readonly string[];
}

/** Vectors by text, as the embeddings runner answers; undefined for a text it has none for. */
export type EmbeddingLookup = (text: string) => readonly number[] | undefined;

/** Asks for the vectors of these texts; undefined when embeddings are unavailable. */
export type EmbeddingsRunner = (
  texts: readonly string[],
  model: string,
) => Promise<EmbeddingLookup | undefined>;

/**
 * The call policies whose semantic rules need embeddings, each with the texts its rules compare
 * with: found once per policy set, since almost no call has one to look up.
 */
export function semanticRules(policies: readonly CallPolicy[]): SemanticRules[] {
  return policies.flatMap((policy) => {
    if (policy.kind !== 'arguments') return [];
    const texts = Object.values(policy.arguments).flatMap((constraint) =>
      constraint.matching_strategy === 'semantic' && typeof constraint.value === 'string'
        ? [constraint.value]
        : [],
    );
    return texts.length > 0 ? [{ policy, texts }] : [];
  });
}

/**
 * The texts to embed for one call: those of the semantic rules sampled for it (`sampleKey`),
 * then every string in its arguments (any of them may be the one a rule compares). Undefined
 * when no semantic rule is sampled for the call.
 */
export function textsToEmbed(
  rules: readonly SemanticRules[],
  argumentsRaw: string,
  sampleKey: string,
): Set<string> | undefined {
  const texts = new Set<string>();
  for (const { policy, texts: compared } of rules)
    if (sampled(policy.sample, policy.id, sampleKey)) for (const text of compared) texts.add(text);
  if (texts.size === 0) return undefined;
  collectStrings(parseOrNull(argumentsRaw), texts);
  return texts;
}

/** The embeddings a sampled semantic rule needs for this call; undefined when none applies. */
export async function semanticLookup(
  rules: readonly SemanticRules[],
  argumentsRaw: string,
  sampleKey: string,
  embeddings: EmbeddingsRunner | undefined,
  model: string,
): Promise<EmbeddingLookup | undefined> {
  if (!embeddings) return undefined;
  const texts = textsToEmbed(rules, argumentsRaw, sampleKey);
  return texts ? embeddings([...texts], model) : undefined;
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function collectStrings(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) collectStrings(item, into);
}
