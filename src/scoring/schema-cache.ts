import type { JsonSchema } from '../trace/trace.js';

/**
 * What is built from a schema, shared by every schema object with the same JSON text: tools are
 * declared once per request and suites repeat the same parameter schemas from case to case, so
 * the same schema arrives as a new object again and again. Building per object would cost the
 * build each time and, for a suite of thousands of cases, keep thousands of copies whose spread
 * over memory makes scoring wait on it. The text cache is bounded (least recently used
 * forgotten first), so a long-running proxy seeing ever new schemas keeps a fixed number.
 */
export interface SchemaCache<T> {
  get(schema: JsonSchema): T;
}

export interface SchemaCacheOptions {
  /**
   * Which schema objects the object cache answers: `every` one asked about (the default: a suite
   * asks with the same objects again), or only the `first` of each text, the one it was built
   * from. `first` is for a cache asked with a new object per request, which every later request
   * finds by text anyway: remembering each would add a weak-map key per request for nothing.
   */
  readonly remember?: 'every' | 'first';
}

export function schemaCache<T>(
  build: (schema: JsonSchema) => T,
  capacity: number,
  { remember = 'every' }: SchemaCacheOptions = {},
): SchemaCache<T> {
  // The object cache is the fast path when the same object comes back (a suite's schemas).
  const byObject = new WeakMap<JsonSchema, T>();
  const byText = new RecentByText<T>(capacity);
  return {
    get(schema) {
      const known = byObject.get(schema);
      if (known !== undefined) return known;
      const text = textOf(schema);
      let built = byText.take(text);
      if (built === undefined) {
        built = build(schema);
        byText.add(text, built);
        byObject.set(schema, built);
      } else if (remember === 'every') byObject.set(schema, built);
      return built;
    },
  };
}

/** A schema cache whose builds also depend on a string key (an argument's path, say): one per schema text and key. */
export interface KeyedSchemaCache<T> {
  get(schema: JsonSchema, key: string): T;
}

export function keyedSchemaCache<T>(
  build: (schema: JsonSchema, key: string) => T,
  capacity: number,
): KeyedSchemaCache<T> {
  const byObject = new WeakMap<JsonSchema, Map<string, T>>();
  const byText = new RecentByText<T>(capacity);
  return {
    get(schema, key) {
      let byKey = byObject.get(schema);
      const known = byKey?.get(key);
      if (known !== undefined) return known;
      // A schema's JSON text holds no raw newline, so the text after the last one is the schema's.
      const text = `${key}\n${textOf(schema)}`;
      let built = byText.take(text);
      if (built === undefined) byText.add(text, (built = build(schema, key)));
      if (!byKey) byObject.set(schema, (byKey = new Map<string, T>()));
      byKey.set(key, built);
      return built;
    },
  };
}

/**
 * The JSON text a schema is cached under. Anything without one (a function, which a lookup by a
 * name such as `constructor` on a plain object finds) would share the text `undefined` with every
 * other such value and get another's build: refused instead.
 */
function textOf(schema: JsonSchema): string {
  const text = JSON.stringify(schema) as string | undefined;
  if (typeof schema !== 'object' || text === undefined)
    throw new TypeError(`not a JSON Schema: ${typeof schema}`);
  return text;
}

/** Values by text, least recently used first; past `capacity` the least recently used is forgotten. */
class RecentByText<T> {
  private readonly values = new Map<string, T>();

  constructor(private readonly capacity: number) {}

  /** The value under `text`, made the most recently used; undefined when there is none. */
  take(text: string): T | undefined {
    const value = this.values.get(text);
    if (value !== undefined) {
      this.values.delete(text);
      this.values.set(text, value);
    }
    return value;
  }

  /** Adds a value not held yet. */
  add(text: string, value: T): void {
    if (this.values.size >= this.capacity)
      this.values.delete(this.values.keys().next().value as string);
    this.values.set(text, value);
  }
}
