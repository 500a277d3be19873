/**
 * Own properties only. Keys in tool calls, suites and mock files come from input, so a lookup
 * must never reach `Object.prototype` (`constructor`, `toString`, `__proto__`…) and a write must
 * never set a prototype: a call sending `"constructor": "x"` is an argument like any other.
 */
export function ownValue<T>(
  record: { readonly [key: string]: T } | undefined,
  key: string,
): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

export function hasOwn(record: object | undefined, key: string): boolean {
  return record !== undefined && Object.hasOwn(record, key);
}

/** Assigns an own data property; `__proto__` becomes a plain key rather than the prototype. */
export function setOwn<T>(record: { [key: string]: T }, key: string, value: T): void {
  if (key === '__proto__')
    Object.defineProperty(record, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  else record[key] = value;
}

/**
 * `Object.hasOwn` for the key of a `for…in` over the same object: the engine answers this form
 * from the loop's own key list (the form `Object.hasOwn` is not reduced to), which keeps the walk
 * over sent arguments at half the cost on objects of a shape not seen before.
 */
export function ownEnumerated(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}
