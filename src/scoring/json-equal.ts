import type { JsonValue } from '../trace/trace.js';

/**
 * Structural equality of JSON values, by own keys whatever an object's prototype. fast-deep-equal
 * calls `valueOf` on objects and throws on a prototype-less one (what a safe JSON parser or
 * `Object.create(null)` gives a library caller); a JSON value has no Dates or RegExps to unwrap.
 */
export function jsonEqual(left: JsonValue, right: JsonValue): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null)
    return false;
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    for (let index = 0; index < left.length; index++)
      if (!jsonEqual(left[index] as JsonValue, right[index] as JsonValue)) return false;
    return true;
  }
  if (Array.isArray(right)) return false;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(right, key) || !jsonEqual(left[key] as JsonValue, right[key] as JsonValue))
      return false;
  }
  return true;
}
