import { jaroWinkler } from '@skyra/jaro-winkler';
import { compileUserPattern, maxPatternInputChars } from './user-pattern.js';
import { jsonEqual } from '../json-equal.js';
import { distance } from 'fastest-levenshtein';
import type { JsonValue } from '../../trace/trace.js';
import { looseString } from '../normalise/loose-string.js';
import { normaliseDateTime } from '../normalise/normalise-datetime.js';
import type { ArgumentRule, MatchingStrategy } from '../types.js';

/** The outcome of comparing one expected value with one actual value. */
export interface ValueMatch {
  readonly matched: boolean;
  /** Similarity, difference or why the strategy could not apply. */
  readonly detail?: string;
  /** The values were of kinds the strategy cannot compare (a string against a number…). */
  readonly typeMismatch?: boolean;
  /** semantic: an embedding was missing, so nothing could be decided. */
  readonly unavailable?: boolean;
}

/** Compares two normalised values by a strategy. Pure and deterministic (embeddings are looked up, never fetched). */
export function matchValue(
  strategy: MatchingStrategy,
  expected: JsonValue,
  actual: JsonValue,
  rule: ArgumentRule,
  embeddings?: (text: string) => readonly number[] | undefined,
): ValueMatch {
  switch (strategy) {
    case 'semantic': {
      if (typeof expected !== 'string' || typeof actual !== 'string')
        return {
          matched: jsonEqual(expected, actual),
          typeMismatch: typeof expected !== typeof actual,
        };
      if (expected === actual) return { matched: true };
      const [left, right] = [embeddings?.(expected), embeddings?.(actual)];
      if (!left || !right)
        return {
          matched: false,
          unavailable: true,
          detail: `no embedding for ${JSON.stringify(left ? actual : expected).slice(0, 80)}`,
        };
      const similarity = cosine(left, right);
      return {
        matched: similarity >= (rule.threshold ?? 0.85),
        detail: `cosine ${round(similarity)}`,
      };
    }
    case 'ignore':
      return { matched: true };
    case 'exact':
    case 'any_of':
      return { matched: jsonEqual(expected, actual) };
    case 'ignore_case':
      return typeof expected === 'string' && typeof actual === 'string'
        ? { matched: expected.toLowerCase() === actual.toLowerCase() }
        : { matched: jsonEqual(expected, actual) };
    case 'loose_string':
      return typeof expected === 'string' && typeof actual === 'string'
        ? { matched: looseString(expected) === looseString(actual) }
        : { matched: jsonEqual(expected, actual) };
    case 'substring':
      return { matched: textOf(actual).includes(textOf(expected)) };
    case 'regex': {
      const text = textOf(actual);
      if (text.length > maxPatternInputChars)
        return {
          matched: false,
          detail: `the value is longer than ${maxPatternInputChars} characters, past what a pattern is run on`,
        };
      return {
        matched: compileUserPattern(
          rule.pattern ?? textOf(expected),
          rule.flags ?? '',
        ).matchesWhole(text),
      };
    }
    case 'fuzzy': {
      if (typeof expected !== 'string' || typeof actual !== 'string')
        return {
          matched: jsonEqual(expected, actual),
          typeMismatch: typeof expected !== typeof actual,
        };
      const similarity =
        rule.algorithm === 'jaro_winkler'
          ? jaroWinkler(expected, actual)
          : levenshteinRatio(expected, actual);
      return {
        matched: similarity >= (rule.threshold ?? 0.85),
        detail: `similarity ${round(similarity)}`,
      };
    }
    case 'numeric': {
      if (typeof expected !== 'number' || typeof actual !== 'number')
        return { matched: false, typeMismatch: true, detail: 'numeric needs two numbers' };
      const outside = outsideRange(actual, rule);
      if (outside) return outside;
      const difference = Math.abs(actual - expected);
      const allowed = Math.max(
        rule.tolerance ?? 0,
        (rule.relative_tolerance ?? 0) * Math.abs(expected),
      );
      return { matched: difference <= allowed, detail: `difference ${round(difference)}` };
    }
    case 'datetime': {
      const [left, right] = [instant(expected), instant(actual)];
      if (left === undefined || right === undefined)
        return {
          matched: false,
          typeMismatch: true,
          detail: 'datetime needs two ISO 8601 date-times',
        };
      const seconds = Math.abs(right - left) / 1000;
      return { matched: seconds <= (rule.tolerance ?? 0), detail: `${round(seconds)} s apart` };
    }
  }
}

/**
 * A rule that carries its own expectation, applied with no expected value: `regex` with a
 * `pattern`, `numeric` with `min`/`max` (numeric strings are read as numbers). Other strategies
 * need an expected value and are refused when the case is compiled.
 */
export function matchAlone(
  strategy: MatchingStrategy,
  actual: JsonValue,
  rule: ArgumentRule,
): ValueMatch {
  if (strategy === 'regex' && rule.pattern !== undefined) {
    const text = textOf(actual);
    if (text.length > maxPatternInputChars)
      return {
        matched: false,
        detail: `the value is longer than ${maxPatternInputChars} characters, past what a pattern is run on`,
      };
    const matched = compileUserPattern(rule.pattern, rule.flags ?? '').matchesWhole(text);
    return matched ? { matched } : { matched, detail: `does not match /${rule.pattern}/` };
  }
  if (strategy === 'numeric') {
    const number = numberOf(actual);
    if (number === undefined)
      return { matched: false, typeMismatch: true, detail: 'numeric needs a number' };
    return outsideRange(number, rule) ?? { matched: true };
  }
  return { matched: false, detail: `${strategy} needs an expected value` };
}

function outsideRange(value: number, rule: ArgumentRule): ValueMatch | undefined {
  if (rule.min !== undefined && value < rule.min)
    return { matched: false, detail: `${value} is below the minimum ${rule.min}` };
  if (rule.max !== undefined && value > rule.max)
    return { matched: false, detail: `${value} is above the maximum ${rule.max}` };
  return undefined;
}

/** 1 − Levenshtein distance ÷ the longer length (1 for two empty strings). */
export function levenshteinRatio(left: string, right: string): number {
  const longer = Math.max(left.length, right.length);
  return longer === 0 ? 1 : 1 - distance(left, right) / longer;
}

/** Cosine similarity of two vectors (0 when either is all zeros or their lengths differ). */
export function cosine(left: readonly number[], right: readonly number[]): number {
  if (left.length !== right.length) return 0;
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let i = 0; i < left.length; i++) {
    const a = left[i] as number;
    const b = right[i] as number;
    dot += a * b;
    leftNorm += a * a;
    rightNorm += b * b;
  }
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}

/** A number, or a string that reads as a finite one (agents send `"42"` as often as `42`); else undefined. */
export function numberOf(value: JsonValue): number | undefined {
  return typeof value === 'number'
    ? value
    : typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
      ? Number(value)
      : undefined;
}

export function textOf(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function instant(value: JsonValue): number | undefined {
  if (typeof value !== 'string') return undefined;
  const normalised =
    normaliseDateTime(value) ??
    (/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.000Z` : undefined);
  return normalised === undefined ? undefined : Date.parse(normalised);
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
