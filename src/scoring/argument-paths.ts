import type { JsonValue } from '../trace/trace.js';
import { hasOwn } from './own.js';

/** Values at a rule path (`a.b`, `items[].sku`, `items[]`) in an arguments object; own properties only. */
export function valuesAt(root: JsonValue, path: string): JsonValue[] {
  let current: JsonValue[] = [root];
  for (const part of path.split('.')) {
    const each = part.endsWith('[]');
    const key = each ? part.slice(0, -2) : part;
    const next: JsonValue[] = [];
    for (const value of current) {
      if (
        typeof value !== 'object' ||
        value === null ||
        Array.isArray(value) ||
        !hasOwn(value, key)
      )
        continue;
      const child = value[key] as JsonValue;
      if (each && Array.isArray(child)) next.push(...child);
      else if (!each) next.push(child);
    }
    current = next;
  }
  return current;
}
