import fc from 'fast-check';

/**
 * Keys that take other paths in a stringifier: the prototype's name, `toJSON`, `length` (typed
 * arrays), integer-like keys (which objects enumerate first), and characters JSON escapes or
 * leaves alone (U+2028, DEL, a lone surrogate).
 */
export const awkwardKey = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('__proto__', 'toJSON', 'length', '0', '1', '10', '2', '01', '-1', '1.5'),
  fc.constantFrom('a\u2028b', '\u007f', '\ud800', 'q"\\', '\u0000', 'é', '\u{1f327}'),
);

/** JSON values that reach a stringifier's less common paths: awkward keys and numbers, long strings. */
export const awkwardJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'binary', maxLength: 12 }),
    // Past 5,000 characters safe-stable-stringify escapes through JSON.stringify.
    fc.string({ unit: 'binary', minLength: 4990, maxLength: 5010 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(-0, 0.1, 1e21, 1e-7, 123456789012345680000, 5e-324),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(awkwardKey, tie('value'), { maxKeys: 6 }),
  ),
})).value;
