import type { JsonSchema, JsonValue } from '../trace/trace.js';

/** How one argument is compared. */
export type MatchingStrategy =
  | 'exact'
  | 'ignore_case'
  | 'loose_string'
  | 'substring'
  | 'regex'
  | 'fuzzy'
  | 'numeric'
  | 'datetime'
  | 'semantic'
  | 'any_of'
  | 'ignore';

/**
 * The marker for "this argument may be absent" inside an `any_of` list. A list holding only the
 * marker means "must be absent" (BFCL's optional-parameter convention, made explicit).
 */
export const omitted = { $omitted: true } as const;

/** The rule for one argument (or a nested path: `address.city`, `items[].sku`). */
export interface ArgumentRule {
  /** Default `exact`. */
  readonly matching_strategy?: MatchingStrategy;
  /** fuzzy and semantic: minimum similarity in [0, 1] (default 0.85). */
  readonly threshold?: number;
  /** fuzzy: `levenshtein` (ratio, default) or `jaro_winkler`. */
  readonly algorithm?: 'levenshtein' | 'jaro_winkler';
  /** numeric: absolute tolerance; datetime: seconds. */
  readonly tolerance?: number;
  /** numeric: tolerance relative to the expected value. */
  readonly relative_tolerance?: number;
  /** numeric: the smallest acceptable value; with `max`, a range that applies with no expected value. */
  readonly min?: number;
  /** numeric: the largest acceptable value. */
  readonly max?: number;
  /** regex: pattern the whole actual value must match (default: the expected value as a pattern). */
  readonly pattern?: string;
  /** regex flags (`i`, `s`, `u`, `m`). */
  readonly flags?: string;
  /** Acceptable values; may contain the omitted marker. */
  readonly any_of?: readonly JsonValue[];
  /** Arrays: compare as a multiset (elements paired one-to-one, best pairing) instead of in order. */
  readonly unordered?: boolean;
  /** Weight in the weighted average (default 1). */
  readonly weight?: number;
  /** A mismatch here fails the whole call (score 0). */
  readonly critical?: boolean;
  /**
   * Named normalisers applied to both sides before matching: `phone`, `money`, `email`, `url`,
   * `loose_string`, or a name registered in `ScoreOptions.normalisers`.
   */
  readonly normalise?: readonly string[];
  /** phone: the country national numbers are read in (ISO 3166 alpha-2, default US). */
  readonly country?: string;
}

/** One expected tool call. */
export interface ExpectedCall {
  /** The tool, or acceptable tools. */
  readonly expected_tool: string | readonly string[];
  readonly arguments?: { readonly [name: string]: JsonValue };
  readonly rules?: { readonly [path: string]: ArgumentRule };
  /** Other acceptable calls, each with its own arguments and rules. */
  readonly alternatives?: readonly {
    readonly tool: string;
    readonly arguments?: { readonly [name: string]: JsonValue };
    readonly rules?: { readonly [path: string]: ArgumentRule };
  }[];
}

/** A ground-truth test case: the classic single-call record, or several parallel calls. */
export interface TestCase extends Partial<Omit<ExpectedCall, 'expected_tool'>> {
  /** The tool, or acceptable tools; `null`: no tool may be called (a negative case). */
  readonly expected_tool?: string | readonly string[] | null;
  readonly test_id?: string;
  readonly prompt?: string;
  /** Parallel expected calls, matched one-to-one with the actual calls (best assignment). */
  readonly expected_calls?: readonly ExpectedCall[];
  /**
   * Arguments the case does not mention: `schema` (default: accepted when the tool's schema
   * declares them, failing the call when it does not; `fail` where no schema is known), `ignore`,
   * `penalize` (count as a mismatch) or `fail`.
   */
  readonly extra_arguments?: ExtraPolicy | 'schema';
  /** Several actual calls for one expected call: `first`, `best`, `all` (each must match), `penalize` (default: extras lower the score). */
  readonly multiple_calls?: 'first' | 'best' | 'all' | 'penalize';
  /** Score a call needs to be correct (default 1.0). */
  readonly pass_threshold?: number;
  /** Parameter schemas by tool name, when the captured request's tools are not given. */
  readonly schemas?: { readonly [tool: string]: JsonSchema };
}

/** How arguments a case does not mention count, once `schema` is resolved for a call (`extraPolicyFor`). */
export type ExtraPolicy = 'ignore' | 'penalize' | 'fail';

/** A call the agent made: arguments as the wire had them (JSON string) or already parsed. */
export interface ActualCall {
  readonly name: string;
  readonly arguments: string | { readonly [name: string]: JsonValue } | null | undefined;
}

/** The closed set of reasons a score is below 1. */
export const reasonCodes = [
  'missing_tool_call',
  'wrong_tool',
  'invalid_json',
  'schema_violation',
  'missing_argument',
  'unexpected_argument',
  'must_be_omitted',
  'value_mismatch',
  'type_mismatch',
  'critical_mismatch',
  'extra_call',
  'embedding_unavailable',
] as const;
export type ReasonCode = (typeof reasonCodes)[number];

/** Why one argument (path) did not match. */
export interface Mismatch {
  readonly expected: JsonValue | undefined;
  readonly actual: JsonValue | undefined;
  readonly reason: ReasonCode;
  readonly strategy: MatchingStrategy;
  readonly score: number;
  /** Similarity, distance or the schema error, where the strategy has one. */
  readonly detail?: string;
}

/** The verdict on one test case. Plain JSON, byte-stable for the same input. */
export interface ScoreResult {
  readonly is_correct: boolean;
  /** Weighted score in [0, 1]. */
  readonly score: number;
  /** By argument path (`amount`, `address.city`, `items[0].sku`; `calls[1].amount` for parallel calls). */
  readonly mismatches: { readonly [path: string]: Mismatch };
  readonly error_message: string | null;
  /** Distinct reason codes, sorted. */
  readonly reasons: readonly ReasonCode[];
  readonly details: {
    /** For each expected call, the index of the actual call it was paired with (null: none). */
    readonly assignment: readonly (number | null)[];
    /** The tool each expected call was matched as (an alternative's name when one matched). */
    readonly matched_tools: readonly (string | null)[];
    readonly extra_calls: number;
  };
}

/** Scoring options. */
export interface ScoreOptions {
  /** Tool parameter schemas (e.g. the captured request's `tools`), by tool name. */
  readonly schemas?: { readonly [tool: string]: JsonSchema };
  /** The clock for `{{TODAY}}`, `{{NOW+2h}}` placeholders (default: now). */
  readonly now?: Date;
  /**
   * Embedding lookup for `semantic` rules: the vector of a text, or undefined when it has none.
   * Scoring stays synchronous and offline: fetch (and cache) embeddings before scoring, e.g. with
   * `EmbeddingCache`, and pass its `lookup` here.
   */
  readonly embeddings?: (text: string) => readonly number[] | undefined;
  /** Your own normalisers, by the name rules use in `normalise` (e.g. loaded from a module by the runner). Must be pure. */
  readonly normalisers?: { readonly [name: string]: (value: JsonValue) => JsonValue };
}
