import type { BodyPattern } from '../config/config.js';
import { compileUserPattern, type UserPattern } from '../scoring/match/user-pattern.js';
import { literalGate } from './literal-gate.js';
import { requiredLiteral } from './required-literal.js';
import { secretlintExpressions } from './secretlint-rules.js';
import {
  decodeQueryName,
  isSecretQueryName,
  secretHeaderNames,
  type HeaderMap,
} from './credential-values.js';
import { storedHeaderFilter } from './stored-headers.js';
import {
  byteOffsets,
  charOffsets,
  expandReplacement,
  shiftOffset,
  type Span,
} from './replacement-spans.js';

/** The marker a credential the agent sent becomes wherever it appears in stored or reported content. */
export const credentialMarker = '[REDACTED:credential]';

/** A built-in pattern and the texts every match of it starts with one of (`literals`), which a text without them cannot match. */
interface BuiltinPattern extends BodyPattern {
  readonly literals: readonly string[];
}

const builtinPatterns: readonly BuiltinPattern[] = [
  {
    pattern: 'sk-ant-[A-Za-z0-9_-]{20,}',
    flags: '',
    replacement: '[REDACTED:anthropic-key]',
    literals: ['sk-ant-'],
  },
  {
    pattern: 'sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}',
    flags: '',
    replacement: '[REDACTED:openai-key]',
    literals: ['sk-'],
  },
  {
    pattern: 'AIza[0-9A-Za-z_-]{35}',
    flags: '',
    replacement: '[REDACTED:google-key]',
    literals: ['AIza'],
  },
  // Shapes the maintained rule set (secretlint-rules.ts) has no rule for.
  {
    pattern: 'ya29\\.[0-9A-Za-z_-]{20,}',
    flags: '',
    replacement: '[REDACTED:google-oauth-token]',
    literals: ['ya29.'],
  },
  {
    pattern: '(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}',
    flags: '',
    replacement: '[REDACTED:stripe-key]',
    literals: ['_live_', '_test_'],
  },
];

/**
 * calltape's own key shapes, redacted on a fresh install with no configuration
 * (`redact.builtinPatterns`): OpenAI (`sk-…`, `sk-proj-…`), Anthropic (`sk-ant-…`), Google
 * (`AIza…`, OAuth `ya29.…`) and Stripe (`sk_live_…`, `rk_test_…`). Long enough minimums that
 * ordinary words never match. secretlint's recommended rules run after them (`secretlintExpressions`).
 */
export const builtinBodyPatterns: readonly BodyPattern[] = builtinPatterns.map(
  ({ pattern, flags, replacement }) => ({ pattern, flags, replacement }),
);

/** Compiled redaction rules: secret header names and body patterns. */
export interface Redactor {
  /** The headers worth storing: allowlisted names only, secrets and configured names never. */
  headers(headers: HeaderMap): Record<string, string | string[]>;
  /** Redacts text; returns the same string instance when nothing matched. */
  text(text: string): string;
  /** Replaces the values of credential query parameters (and configured secret header names) in a request path. */
  path(path: string): string;
  /**
   * Redacts a body that arrived in chunks, keeping chunk boundaries (byte offsets) meaningful:
   * a boundary inside a replaced span moves to the end of its replacement.
   */
  chunks(body: Uint8Array, chunkEnds: readonly number[]): { body: Uint8Array; chunkEnds: number[] };
  /**
   * The same rules plus literal values (the credentials one agent sent), each replaced by
   * `credentialMarker`. Compiled once per set of values (an agent sends the same key every time).
   */
  withSecrets(values: readonly string[]): Redactor;
  /** The secret header names (built-in and configured), lower-case. */
  readonly secretHeaders: ReadonlySet<string>;
}

interface Expression {
  readonly pattern: Pick<UserPattern, 'replaceAll'>;
  readonly replacement: string;
  /**
   * Texts every match contains one of, when known: a text holding none of them is skipped without
   * running the pattern (a native search is several times cheaper than a regular expression's
   * run over text it does not match, which is almost every text).
   */
  readonly literals: readonly string[] | undefined;
}

/**
 * Texts at least this long are passed through `literalGate`: a 4 KB stream body took 5.5–8.2 µs
 * of searching before, 1.4–2.1 through it; for a 330-character request body planning the
 * searches cost what it saved.
 */
const gatedLength = 1024;

/** Whether an expression could match the text: false only when it provably cannot. */
function mayMatch(expression: Expression, text: string): boolean {
  const { literals } = expression;
  if (literals === undefined) return true;
  for (const literal of literals) if (text.includes(literal)) return true;
  return false;
}

/** One of calltape's own expressions (built-in key shapes, the agent's literal credentials): known linear, so V8's engine runs it. */
function ownExpression(
  regex: RegExp,
  replacement: string,
  literals: readonly string[],
): Expression {
  // Two calls, one per overload of String.prototype.replace.
  return {
    pattern: {
      replaceAll: (text, replace) =>
        typeof replace === 'string' ? text.replace(regex, replace) : text.replace(regex, replace),
    },
    replacement,
    literals,
  };
}

/** Shorter values are too likely to occur by chance to be replaced everywhere. */
const minSecretLength = 8;

/**
 * Compiles the redaction rules. Configured body patterns run on the linear-time engine user
 * patterns use (`compileUserPattern`): a pattern from a config file cannot stall the proxy or
 * the store on what a model sends. Throws on a pattern that engine cannot run.
 */
export function createRedactor(
  extraHeaders: readonly string[],
  patterns: readonly BodyPattern[],
  builtins = true,
): Redactor {
  // Configured patterns first: they are the more specific, and their replacement is the one the user chose.
  const configured = patterns.map((pattern): Expression => {
    const literal = requiredLiteral(pattern.pattern, pattern.flags);
    return {
      pattern: compileUserPattern(pattern.pattern, pattern.flags),
      replacement: pattern.replacement,
      // Most text holds no match: a native search for what every match starts with spares the RE2 engine's run over it.
      literals: literal === undefined ? undefined : [literal],
    };
  });
  const own = builtins
    ? builtinPatterns.map((pattern) =>
        ownExpression(new RegExp(pattern.pattern, 'g'), pattern.replacement, pattern.literals),
      )
    : [];
  const maintained: Expression[] = builtins ? secretlintExpressions() : [];
  return redactorOf(
    new Set([...secretHeaderNames, ...extraHeaders.map((name) => name.toLowerCase())]),
    [...configured, ...own, ...maintained],
  );
}

/**
 * Credential sets whose redactors are kept for reuse: a busy proxy sees the same few API keys on
 * every round, and compiling their expression per round showed in profiles of the workers.
 */
const maxCachedSecretSets = 64;

function redactorOf(
  secret: ReadonlySet<string>,
  expressions: readonly Expression[],
  storedHeaders: Redactor['headers'] = storedHeaderFilter(secret),
): Redactor {
  const withSecretsCache = new Map<string, Redactor>();
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  const gate = literalGate(expressions.map((expression) => expression.literals));
  // A shorter text is first searched for every literal at once: most hold none, which rules out
  // every gated expression in one search instead of one per literal (secretlint's rules have ~60).
  const literals = [...new Set(expressions.flatMap((expression) => expression.literals ?? []))];
  const anyLiteral =
    literals.length > 1 ? new RegExp(literals.map(escapeRegExp).join('|')) : undefined;

  function text(input: string): string {
    // A long text (a body) is searched for as few literals as decide every expression; a short one
    // costs less to search for each literal than to plan the searches.
    const possible = input.length >= gatedLength ? gate(input) : undefined;
    const holdsNone = possible === undefined && anyLiteral !== undefined && !anyLiteral.test(input);
    let output = input;
    for (let index = 0; index < expressions.length; index++) {
      const expression = expressions[index] as Expression;
      // The gate's verdicts are about the input: once an expression has rewritten it, search afresh.
      const may =
        output !== input
          ? mayMatch(expression, output)
          : possible
            ? possible[index] === true
            : holdsNone
              ? expression.literals === undefined
              : mayMatch(expression, output);
      if (may) output = expression.pattern.replaceAll(output, expression.replacement);
    }
    return output;
  }

  const isSecretQuery = (name: string): boolean =>
    isSecretQueryName(name) || secret.has(decodeQueryName(name).toLowerCase());

  const redactor: Redactor = {
    secretHeaders: secret,
    withSecrets(values) {
      const literals = [...new Set(values)]
        .filter((value) => value.length >= minSecretLength)
        .sort((a, b) => b.length - a.length);
      if (literals.length === 0) return redactor;
      const key = JSON.stringify(literals);
      const known = withSecretsCache.get(key);
      if (known) return known;
      // Credentials first: a configured pattern could otherwise rewrite part of one and leave the rest.
      const regex = new RegExp(literals.map(escapeRegExp).join('|'), 'g');
      const built = redactorOf(
        secret,
        [ownExpression(regex, credentialMarker, literals), ...expressions],
        storedHeaders,
      );
      if (withSecretsCache.size >= maxCachedSecretSets)
        withSecretsCache.delete(withSecretsCache.keys().next().value as string);
      withSecretsCache.set(key, built);
      return built;
    },
    path(path) {
      const queryAt = path.indexOf('?');
      if (queryAt === -1) return path;
      const query = path
        .slice(queryAt + 1)
        .split('&')
        .map((pair) => {
          const name = pair.split('=', 1)[0] ?? '';
          return isSecretQuery(name) ? `${name}=REDACTED` : pair;
        })
        .join('&');
      return `${path.slice(0, queryAt + 1)}${query}`;
    },
    headers: storedHeaders,
    text,
    chunks(body, chunkEnds) {
      if (expressions.length === 0) return { body, chunkEnds: [...chunkEnds] };
      // Work on code-unit offsets of the decoded text, then map back to UTF-8 byte offsets.
      const original = decoder.decode(body);
      if (text(original) === original) return { body, chunkEnds: [...chunkEnds] };
      let current = original;
      let ends = charOffsets(body, chunkEnds);
      for (const expression of expressions) {
        if (!mayMatch(expression, current)) continue;
        const { pattern, replacement } = expression;
        const spans: Span[] = [];
        current = pattern.replaceAll(current, (...args: unknown[]) => {
          const replaced = expandReplacement(replacement, args);
          const match = args[0] as string;
          const offset = args.find((arg, index) => index > 0 && typeof arg === 'number') as number;
          spans.push({ start: offset, end: offset + match.length, length: replaced.length });
          return replaced;
        });
        ends = ends.map((end) => shiftOffset(end, spans));
      }
      return { body: encoder.encode(current), chunkEnds: byteOffsets(current, ends) };
    },
  };
  return redactor;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
