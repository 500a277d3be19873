import { CalltapeError } from '../../errors.js';
import type { JsonValue } from '../../trace/trace.js';
import type { ArgumentRule } from '../types.js';
import { namedNormalisers, type NamedNormaliser } from './named-normalisers.js';
import { hasOwn, ownValue } from '../own.js';

/** A rule's `normalise` list applied in order: the user's normalisers by name first, then the built-in ones. */
export function applyNamedNormalisers(
  value: JsonValue,
  rule: ArgumentRule,
  custom: { readonly [name: string]: (value: JsonValue) => JsonValue } | undefined,
): JsonValue {
  let result = value;
  for (const name of rule.normalise ?? []) result = namedNormaliser(name, rule, custom)(result);
  return result;
}

/** One normaliser by name, bound to the rule's options; an unknown name is an error (a typo must not compare raw values). */
export function namedNormaliser(
  name: string,
  rule: ArgumentRule,
  custom: { readonly [name: string]: (value: JsonValue) => JsonValue } | undefined,
): (value: JsonValue) => JsonValue {
  const own = ownValue(custom, name);
  if (own) return own;
  if (!hasOwn(namedNormalisers, name))
    throw new CalltapeError(
      'CONFIG_INVALID',
      `unknown normaliser "${name}": use phone, money, email, url or loose_string, or register it in options.normalisers`,
    );
  const builtIn = namedNormalisers[name as NamedNormaliser];
  const options = rule.country === undefined ? {} : { country: rule.country };
  return (value) => builtIn(value, options);
}
