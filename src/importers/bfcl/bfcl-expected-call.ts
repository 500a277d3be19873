import { ownValue, setOwn } from '../../scoring/own.js';
import type { JsonValue } from '../../trace/trace.js';
import { toolNameOf } from './bfcl-tool.js';
import type { BfclAnswerCall, BfclFunction } from './read-bfcl-lines.js';
import { isObject } from './read-bfcl-lines.js';

type JsonObject = { readonly [key: string]: JsonValue };
type Writable = { [key: string]: JsonValue };

/** An expected call in calltape's case shape (`expected_tool`, `arguments`, `rules`, `alternatives`), and how far it is BFCL's check. */
export interface BfclExpectedCall {
  readonly call: JsonObject;
  /** Why a parameter is compared other than as BFCL's checker compares it; empty when it is compared the same. */
  readonly approximations: readonly string[];
}

/** BFCL types its checker reads as Python `str`, compared by its loose string rule. */
const stringTypes = new Set(['string', 'any']);

/** Alternatives grow as 2^n with the dict parameters that may be left out. */
const maxDroppable = 3;

/** A rule path segment that needs no quoting: the scorer reads `.`, `[` and `*` in a path as structure. */
const plainKey = /^[^.[\]*]+$/;

/**
 * One call of a BFCL possible answer as a calltape expected call, checked as BFCL's AST checker
 * checks it: each parameter's acceptable values as `any_of` (with the omitted marker where BFCL
 * lists `""` and the parameter is not required), strings by BFCL's own comparison
 * (`loose_string`, where the checker reads the parameter as a string), a `dict` parameter key by
 * key (a key the answer does not list fails, as `extra_arguments: fail` makes it at the top).
 */
export function bfclExpectedCall(
  answer: BfclAnswerCall,
  fn: BfclFunction | undefined,
): BfclExpectedCall {
  const properties = ownValue(fn?.parameters ?? {}, 'properties');
  const requiredList = ownValue(fn?.parameters ?? {}, 'required');
  const required = new Set(Array.isArray(requiredList) ? requiredList : []);
  const args: Writable = {};
  const rules: Writable = {};
  const approximations: string[] = [];
  // Parameters that may be left out but whose rules cannot carry the omitted marker: an alternative drops them.
  const droppable: string[] = [];
  for (const [name, values] of answer.parameters) {
    const declared = isObject(properties) ? ownValue(properties, name) : undefined;
    const type = isObject(declared) ? ownValue(declared, 'type') : undefined;
    const mayOmit = values.includes('') && !required.has(name);
    const acceptable = values.filter((value) => value !== '');
    const first = acceptable[0];
    if (first === undefined) {
      setOwn(rules, name, { any_of: [{ $omitted: true }] });
      continue;
    }
    // BFCL compares by its string rule only where the parameter is a string and the answer a string (else it is a "variable", compared exactly).
    const loose = typeof type === 'string' && stringTypes.has(type) && typeof first === 'string';
    if (type === 'dict' && acceptable.length === 1 && isObject(first) && dictKeysPlain(first)) {
      setOwn(args, name, dictRules(name, first, rules));
      if (mayOmit) droppable.push(name);
      continue;
    }
    // A dict the answer lists among several, or inside a list: one value per key (BFCL's checker accepts any listed one).
    const chosen = acceptable.map(oneValuePerKey);
    if (chosen.some((value, index) => value !== acceptable[index]))
      approximations.push(
        `${name}: a dict inside a list, or one of several dicts, is compared with the first value BFCL lists for each of its keys`,
      );
    setOwn(args, name, chosen[0] as JsonValue);
    if (chosen.length > 1 || mayOmit)
      setOwn(rules, name, {
        any_of: [...chosen, ...(mayOmit ? [{ $omitted: true }] : [])],
        ...(loose ? { matching_strategy: 'loose_string' } : {}),
      });
    else if (loose) setOwn(rules, name, { matching_strategy: 'loose_string' });
    // BFCL's list checker folds every string element of a list answer: one rule for every element does the same.
    if (stringList(chosen) && plainKey.test(name))
      setOwn(rules, `${name}[]`, { matching_strategy: 'loose_string' });
    else if (chosen.some(holdsString))
      approximations.push(
        `${name}: strings inside a ${type === 'dict' ? 'dict' : 'list'} are compared exactly (BFCL folds case, spaces and ,./-_*^ there too)`,
      );
  }
  const call: Writable = {
    expected_tool: toolNameOf(answer.name),
    arguments: args,
    ...(Object.keys(rules).length > 0 ? { rules } : {}),
  };
  if (droppable.length > maxDroppable)
    approximations.push(
      `${droppable.join(', ')}: BFCL lets each be left out; more than ${maxDroppable} such dict parameters in one call would need too many alternatives, so each must be given`,
    );
  else if (droppable.length > 0) call['alternatives'] = alternativesDropping(call, droppable);
  return { call, approximations };
}

/** `dict` parameters: one rule per key (`param.key`), strings folded as BFCL's dict checker folds them. */
function dictRules(name: string, answer: JsonObject, rules: Writable): JsonObject {
  const value: Writable = {};
  for (const key of Object.keys(answer)) {
    const listed = answer[key];
    const values = Array.isArray(listed) ? listed : [listed as JsonValue];
    const mayOmit = values.includes('');
    const acceptable = values.filter((item) => item !== '');
    const first = acceptable[0];
    const path = `${name}.${key}`;
    if (first === undefined) {
      setOwn(rules, path, { any_of: [{ $omitted: true }] });
      continue;
    }
    setOwn(value, key, first);
    const loose = typeof first === 'string';
    if (acceptable.length > 1 || mayOmit)
      setOwn(rules, path, {
        any_of: [...acceptable, ...(mayOmit ? [{ $omitted: true }] : [])],
        ...(loose ? { matching_strategy: 'loose_string' } : {}),
      });
    else if (loose) setOwn(rules, path, { matching_strategy: 'loose_string' });
  }
  return value;
}

/** Every way of leaving out some of the droppable parameters (their rules go with them). */
function alternativesDropping(call: JsonObject, droppable: readonly string[]): JsonValue[] {
  const alternatives: JsonValue[] = [];
  for (let mask = 1; mask < 2 ** droppable.length; mask++) {
    const dropped = droppable.filter((_, index) => (mask & (2 ** index)) !== 0);
    const args: Writable = {};
    const rules: Writable = {};
    const given = call['arguments'] as JsonObject;
    for (const key of Object.keys(given))
      if (!dropped.includes(key)) setOwn(args, key, given[key] as JsonValue);
    const callRules = (call['rules'] ?? {}) as JsonObject;
    for (const path of Object.keys(callRules))
      if (!dropped.some((name) => path === name || path.startsWith(`${name}.`)))
        setOwn(rules, path, callRules[path] as JsonValue);
    alternatives.push({
      tool: call['expected_tool'] as string,
      arguments: args,
      ...(Object.keys(rules).length > 0 ? { rules } : {}),
    });
  }
  return alternatives;
}

/** BFCL's dict answers hold a list of acceptable values per key: the first of each (recursively into lists). */
function oneValuePerKey(value: JsonValue): JsonValue {
  if (Array.isArray(value) && value.length > 0 && value.every(isObject))
    return value.map(oneValuePerKey);
  if (!isObject(value) || Object.keys(value).length === 0) return value;
  if (!Object.values(value).every((item) => Array.isArray(item))) return value;
  const chosen: Writable = {};
  for (const key of Object.keys(value)) {
    const first = (value[key] as JsonValue[]).find((item) => item !== '');
    if (first !== undefined) setOwn(chosen, key, oneValuePerKey(first));
  }
  return chosen;
}

function dictKeysPlain(answer: JsonObject): boolean {
  return Object.keys(answer).every((key) => plainKey.test(key));
}

/** Every acceptable value a list of plain values (the first not empty, for the element rule to compare with), some of them strings. */
function stringList(values: readonly JsonValue[]): boolean {
  const [first] = values;
  return (
    Array.isArray(first) &&
    first.length > 0 &&
    values.every(
      (value) =>
        Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null),
    ) &&
    values.some((value) => (value as JsonValue[]).some((item) => typeof item === 'string'))
  );
}

/** Whether a list or dict holds a string at any depth (a plain string parameter is compared loosely already). */
function holdsString(value: JsonValue): boolean {
  const items = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : [];
  return items.some((item) => typeof item === 'string' || holdsString(item));
}
