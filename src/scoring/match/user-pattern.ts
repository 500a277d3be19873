import { RE2JS } from 're2js';

/**
 * Longest text a user pattern is run against. RE2 runs in linear time, so this only bounds the
 * work one model argument can cost; longer text does not match (the detail says why).
 */
export const maxPatternInputChars = 1_000_000;

/** What a replacer function gets, as from String.prototype.replace: the match, its groups, its offset, the text, then the named groups when the pattern has any. */
export type Replacer = (match: string, ...rest: unknown[]) => string;

/** A user-written regular expression, compiled for a linear-time engine. */
export interface UserPattern {
  /** Whether the whole text matches (the pattern is anchored at both ends). */
  matchesWhole(text: string): boolean;
  /**
   * Every match replaced, as `text.replace(/…/g, replacement)` would: a string expands `$&`,
   * `$1`, `$<name>` and `$$` the JavaScript way. Linear in the text, so it has no length cap
   * (redaction must see all of a body).
   */
  replaceAll(text: string, replacement: string | Replacer): string;
}

const compiled = new Map<string, UserPattern>();
/** Distinct patterns kept compiled; they come from config files, so a small bound is plenty. */
const maxCompiled = 1000;

/**
 * Compiles a pattern from a mock file, policy, suite or the proxy configuration (body
 * redaction, match normalisers) with RE2 semantics (re2js): matching
 * time is linear in the input, so no pattern (`(a+)+$` and the like) can stall the proxy on what
 * a model sends. Flags `i`, `m`, `s` keep their JavaScript meaning; `g`, `y` and `u` change
 * nothing here. Throws `Error` with the engine's reason for syntax RE2 lacks (lookaround,
 * backreferences).
 */
export function compileUserPattern(source: string, flags = ''): UserPattern {
  const key = `${flags}/${source}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  let bits = 0;
  if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) bits |= RE2JS.MULTILINE;
  if (flags.includes('s')) bits |= RE2JS.DOTALL;
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(source, bits);
  } catch (error) {
    throw new Error(
      `${(error as Error).message} (patterns use RE2 syntax: no lookaround or backreferences)`,
    );
  }
  const pattern: UserPattern = {
    matchesWhole: (text) => text.length <= maxPatternInputChars && regex.matches(text),
    replaceAll: (text, replacement) => regex.matcher(text).replaceAll(replacement),
  };
  if (compiled.size >= maxCompiled) compiled.clear();
  compiled.set(key, pattern);
  return pattern;
}
