/**
 * What changes between two recordings of the same answer, for the review text to leave out or
 * replace: provider ids and timestamps, request ids, processing times and rate-limit counters.
 */

/** Headers whose value differs on every recording (prefix entries end in '-'). */
const volatileHeaderNames: readonly string[] = [
  'x-request-id',
  'request-id',
  'openai-processing-ms',
  'idempotency-key',
  'x-stainless-retry-count',
  'x-stainless-timeout',
  'x-ratelimit-',
  'anthropic-ratelimit-',
];

/** Whether a (lower-case) stored header name is one the review text leaves out. */
export function isVolatileHeader(name: string): boolean {
  return volatileHeaderNames.some((volatile) =>
    volatile.endsWith('-') ? name.startsWith(volatile) : name === volatile,
  );
}

/** JSON keys holding an id the provider makes up per response (or the agent echoes back). */
const idKeys = new Set([
  'id',
  'call_id',
  'tool_call_id',
  'tool_use_id',
  'item_id',
  'response_id',
  'previous_response_id',
  'system_fingerprint',
]);
/** JSON keys holding the time a response was made. */
const timeKeys = new Set(['created', 'created_at', 'completed_at']);
/** Random padding OpenAI adds to stream events. */
const randomKeys = new Set(['obfuscation']);
/**
 * Keys whose value is the agent's or the model's own data (tool arguments, JSON Schemas), where
 * a field named `id` is content, not a provider id. `input` only when it is an object: Anthropic
 * tool input is one, a Responses request's `input` (a list of items with call ids) is not.
 */
const contentKeys = new Set([
  'arguments',
  'parameters',
  'input_schema',
  'properties',
  'schema',
  'metadata',
]);

/**
 * Replaces volatile values with placeholders that stay the same across recordings. Ids are
 * numbered by first appearance (`<id 1>`, `<id 2>`), per instance: one instance per session, so a
 * call id in a response and the same id echoed in the next request read alike, and a reviewer
 * still sees which call a tool result answers.
 */
export class VolatilePlaceholders {
  readonly #ids = new Map<string, string>();

  /** The value with its volatile fields replaced (a new value; the input is not changed). */
  replaceIn(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.replaceIn(item));
    if (value === null || typeof value !== 'object') return value;
    // No prototype: a key named `__proto__` in the body stays a key.
    const result = Object.create(null) as Record<string, unknown>;
    for (const [key, field] of Object.entries(value)) {
      if (contentKeys.has(key) || (key === 'input' && isPlainObject(field))) result[key] = field;
      else if (typeof field !== 'string' && typeof field !== 'number')
        result[key] = this.replaceIn(field);
      else result[key] = this.#placeholder(key, field) ?? field;
    }
    return result;
  }

  /** The placeholder for a call id column (`tool_calls.call_id`). */
  id(value: string): string {
    let placeholder = this.#ids.get(value);
    if (placeholder === undefined) {
      placeholder = `<id ${this.#ids.size + 1}>`;
      this.#ids.set(value, placeholder);
    }
    return placeholder;
  }

  #placeholder(key: string, value: string | number): string | undefined {
    if (idKeys.has(key)) return this.id(String(value));
    if (timeKeys.has(key)) return '<time>';
    if (randomKeys.has(key)) return '<random>';
    return undefined;
  }
}

function isPlainObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
