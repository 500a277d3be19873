import { levenshteinRatio } from '../scoring/match/match-value.js';

/**
 * A prompt's comparable form: Unicode-compatibility folded (NFKC), lower-cased, punctuation and
 * symbols dropped, whitespace collapsed. "What's my balance?!" and "whats my  balance" meet here.
 */
export function normalisePrompt(prompt: string): string {
  return prompt
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** What deduplication kept and what it dropped (each with the earlier item it duplicates). */
export interface Deduplicated<T> {
  readonly kept: readonly T[];
  readonly dropped: readonly { readonly item: T; readonly duplicateOf: T }[];
}

/**
 * Keeps the first of every group of near-duplicates, in input order: an item is dropped when its
 * normalised text equals a kept item's, or their Levenshtein ratio reaches `threshold` (0..1).
 * `existing` items (cases already in the suite) are compared against but never returned.
 */
export function dedupePrompts<T>(
  items: readonly T[],
  textOf: (item: T) => string,
  threshold: number,
  existing: readonly T[] = [],
): Deduplicated<T> {
  const seen = existing.map((item) => ({ item, text: normalisePrompt(textOf(item)) }));
  const kept: T[] = [];
  const dropped: { item: T; duplicateOf: T }[] = [];
  for (const item of items) {
    const text = normalisePrompt(textOf(item));
    const twin = seen.find((other) => other.text === text || similar(other.text, text, threshold));
    if (twin) dropped.push({ item, duplicateOf: twin.item });
    else {
      seen.push({ item, text });
      kept.push(item);
    }
  }
  return { kept, dropped };
}

function similar(left: string, right: string, threshold: number): boolean {
  // The ratio can only reach the threshold when the lengths allow it: a cheap bound before the O(n·m) distance.
  const longer = Math.max(left.length, right.length);
  if (longer === 0 || Math.abs(left.length - right.length) / longer > 1 - threshold) return false;
  return levenshteinRatio(left, right) >= threshold;
}
