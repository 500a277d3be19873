import type { BuiltinNormaliser, MatchRules, Normaliser } from '../config/config.js';
import { resolveWire } from '../providers/adapters.js';
import { splitPathQuery } from '../providers/wire-route.js';
import { compileUserPattern } from '../scoring/match/user-pattern.js';
import { stableStringify } from '../stable-stringify.js';
import type { JsonValue } from '../trace/trace.js';

// The rules are configuration, so their types live with the Config; the cassette's modules name them here.
export type { BuiltinNormaliser, MatchRules, Normaliser };

/** Headers that change what a provider does, so they are part of a request's identity. */
export const protocolHeaders: readonly string[] = [
  'anthropic-version',
  'anthropic-beta',
  'openai-beta',
];

const builtins: Record<
  Exclude<BuiltinNormaliser, 'tool-call-ids'>,
  { regex: RegExp; replacement: string; literal: string }
> = {
  // 2026-11-30, 2026-11-30T02:03:04Z, 2026-11-30 02:03:04.123+01:00
  'iso-datetime': {
    regex: /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g,
    replacement: '<datetime>',
    literal: '-',
  },
  uuid: {
    regex: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
    replacement: '<uuid>',
    literal: '-',
  },
};
/** Provider tool-call ids: OpenAI `call_…`, Anthropic `toolu_…`, Responses `fc_…`. */
const toolCallId = /\b(?:call|toolu|fc)_[A-Za-z0-9_-]{6,}\b/g;

/** The request as it is matched: only what identifies it, normalised. */
export interface CanonicalRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: JsonValue;
}

/**
 * Builds the canonical form of a request: ignored paths removed, normalisers applied to every
 * string, protocol-version headers kept, everything else (host, auth, user agent) left out.
 * Object keys are sorted when serialised; arrays keep their order (message order is meaning).
 */
export function canonicalRequest(
  method: string,
  path: string,
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
  body: JsonValue,
  rules: MatchRules,
): CanonicalRequest {
  const kept: Record<string, string> = {};
  for (const name of protocolHeaders) {
    const value = headers[name];
    if (value !== undefined) kept[name] = typeof value === 'string' ? value : value.join(', ');
  }
  // Values the agent's client makes up anew on every run (ids for Gemini calls that came without one) never identify a request.
  const clientMade = resolveWire(method.toUpperCase(), splitPathQuery(path).path)?.adapter
    .clientMadePaths;
  const withoutIgnored = removePaths(
    clientMade === undefined ? body : removePaths(body, parsedPaths(clientMade)),
    parsedPaths(rules.ignorePaths),
  );
  // All normalisers in one walk: each is applied per string in the listed order, which equals one pass per normaliser.
  const steps = rules.normalisers.map(normaliserStep);
  const normalised =
    steps.length === 0
      ? withoutIgnored
      : mapStrings(withoutIgnored, (text) => steps.reduce((current, step) => step(current), text));
  return {
    method: method.toUpperCase(),
    path: rules.azureApiVersion === 'match' ? path : withoutAzureApiVersion(path),
    headers: kept,
    body: normalised,
  };
}

/**
 * Deterministic text of a canonical request: what is hashed into the key and stored beside it.
 * Every stored key depends on this text, so it must never change (`stableStringify` holds it to
 * what the old library wrote; the new one takes half the time, a few µs of each recorded round).
 */
export function canonicalText(request: CanonicalRequest): string {
  return stableStringify(request);
}

/**
 * A version of the matching rules; when it changes, stored keys are recomputed from the stored
 * bodies. `azureApiVersion` enters it only when set to `match` (not the default), so cassettes
 * keyed before the option existed keep their profile and are not all re-keyed.
 */
export function keyProfile(rules: MatchRules): string {
  return `v1 ${stableStringify({
    ignorePaths: rules.ignorePaths,
    normalisers: rules.normalisers,
    ...(rules.azureApiVersion === 'match' ? { azureApiVersion: 'match' } : {}),
  })}`;
}

/**
 * An Azure OpenAI path (`/openai/…`) without its `api-version` query parameter; other paths
 * unchanged (an OpenAI-compatible gateway's own `api-version` stays in the key, as it always was).
 */
function withoutAzureApiVersion(path: string): string {
  const queryAt = path.indexOf('?');
  if (queryAt === -1 || !path.startsWith('/openai/')) return path;
  const kept = path
    .slice(queryAt + 1)
    .split('&')
    .filter((pair) => (pair.split('=', 1)[0] ?? '').toLowerCase() !== 'api-version');
  return kept.length === 0 ? path.slice(0, queryAt) : `${path.slice(0, queryAt)}?${kept.join('&')}`;
}

type PathStep = { readonly key: string; readonly each: boolean };

/** Ignored paths parsed once per rules (the store keys every request under the same ones). */
const parsed = new WeakMap<readonly string[], PathStep[][]>();

function parsedPaths(paths: readonly string[]): PathStep[][] {
  let steps = parsed.get(paths);
  if (!steps) parsed.set(paths, (steps = paths.map(parsePath)));
  return steps;
}

function parsePath(path: string): PathStep[] {
  return path
    .split('.')
    .map((part) =>
      part.endsWith('[]') ? { key: part.slice(0, -2), each: true } : { key: part, each: false },
    );
}

function removePaths(value: JsonValue, paths: readonly PathStep[][]): JsonValue {
  let result = value;
  for (const path of paths) result = removePath(result, path);
  return result;
}

function removePath(value: JsonValue, path: readonly PathStep[]): JsonValue {
  const [step, ...rest] = path;
  if (
    !step ||
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    !(step.key in value)
  )
    return value;
  const { [step.key]: child, ...others } = value;
  if (rest.length === 0 && !step.each) return others;
  if (child === undefined) return value;
  if (step.each) {
    if (!Array.isArray(child)) return value;
    return rest.length === 0
      ? others
      : { ...others, [step.key]: child.map((item) => removePath(item, rest)) };
  }
  return { ...others, [step.key]: removePath(child, rest) };
}

/** One normaliser as a string function (tool-call ids keep their numbering across the strings of one request). */
function normaliserStep(normaliser: Normaliser): (text: string) => string {
  if (normaliser === 'tool-call-ids') {
    // Numbered by first appearance, so the same id maps to the same placeholder everywhere in the request.
    const seen = new Map<string, string>();
    return (text) =>
      text.replace(toolCallId, (id) => {
        let placeholder = seen.get(id);
        if (!placeholder) seen.set(id, (placeholder = `<tool-call-${seen.size + 1}>`));
        return placeholder;
      });
  }
  if (typeof normaliser === 'string') {
    const { regex, replacement, literal } = builtins[normaliser];
    // Every match holds `literal`; most strings of a request (roles, names, prose) hold none, and a
    // native search rejects them for far less than a run of the expression does.
    return (text) => (text.includes(literal) ? text.replace(regex, replacement) : text);
  }
  // A configured pattern runs on the linear-time engine: it sees every string of every request.
  const pattern = compileUserPattern(normaliser.pattern, normaliser.flags ?? '');
  return (text) => pattern.replaceAll(text, normaliser.replacement);
}

/** Maps every string value (not keys) in document order. */
function mapStrings(value: JsonValue, map: (text: string) => string): JsonValue {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (typeof value === 'object' && value !== null) {
    const result: Record<string, JsonValue> = {};
    for (const key of Object.keys(value).sort())
      result[key] = mapStrings(value[key] as JsonValue, map);
    return result;
  }
  return value;
}
