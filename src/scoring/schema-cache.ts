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

export function schemaCache<T>(build: (schema: JsonSchema) => T, capacity: number): SchemaCache<T> {
  // The object cache is the fast path when the same object comes back (a suite's schemas).
  const byObject = new WeakMap<JsonSchema, T>();
  const byText = new Map<string, T>();
  return {
    get(schema) {
      const known = byObject.get(schema);
      if (known !== undefined) return known;
      const text = JSON.stringify(schema);
      let built = byText.get(text);
      if (built === undefined) {
        built = build(schema);
        if (byText.size >= capacity) byText.delete(byText.keys().next().value as string);
      } else byText.delete(text);
      byText.set(text, built);
      byObject.set(schema, built);
      return built;
    },
  };
}
