import type { JsonValue } from '../trace/trace.js';

// A state key may itself hold argument placeholders: `{{state.order:{{args.order_id}}}}`.
const argumentReference = String.raw`args(?:\.[^\s.{}]+)+`;
const reference = String.raw`${argumentReference}|call\.name|call\.id|state\.(?:[^\s{}]|\{\{\s*${argumentReference}\s*\}\})+`;
const placeholder = new RegExp(String.raw`\{\{\s*(${reference})\s*\}\}`, 'g');
const whole = new RegExp(String.raw`^\{\{\s*(${reference})\s*\}\}$`);
const argumentPlaceholder = new RegExp(String.raw`\{\{\s*(${argumentReference})\s*\}\}`, 'g');

/** A mock session's declared state, by key (see `MockSessionStates`). */
export type MockStateView = ReadonlyMap<string, JsonValue>;

/** What templates read: the call, and the state of its session when the mock set declares one. */
export interface TemplateSource {
  readonly name: string;
  readonly id: string;
  readonly args: JsonValue;
  readonly state?: MockStateView;
}

export type Rendered =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly missing: string };

/**
 * Fills `{{args.<path>}}`, `{{call.name}}`, `{{call.id}}` and `{{state.<key>}}` in a result. A
 * string that is only a placeholder takes the value with its type (`"{{args.amount}}"` → 20);
 * inside text, the value is written as JSON (strings as they are). An argument the call lacks is
 * reported, never rendered as empty; a state key never set reads as null (state is declared, so
 * "not set yet" is a value the mock file can test for).
 */
export function renderTemplate(value: JsonValue, call: TemplateSource): Rendered {
  let missing: string | undefined;
  const argument = (path: string): JsonValue | undefined => {
    const found = argumentAt(call.args, path);
    if (found === undefined) missing ??= path.slice('args.'.length);
    return found;
  };
  const lookup = (name: string): JsonValue | undefined => {
    if (name === 'call.name') return call.name;
    if (name === 'call.id') return call.id;
    if (name.startsWith('state.')) {
      const key = fillText(name.slice('state.'.length), argumentPlaceholder, argument);
      return key === undefined ? undefined : (call.state?.get(key) ?? null);
    }
    return argument(name);
  };
  const walk = (node: JsonValue): JsonValue => {
    if (typeof node === 'string') {
      if (!node.includes('{{')) return node;
      const only = whole.exec(node);
      if (only) return lookup(only[1] as string) ?? node;
      return fillText(node, placeholder, lookup) ?? node;
    }
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node === 'object' && node !== null)
      return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, walk(item)]));
    return node;
  };
  const rendered = walk(value);
  return missing === undefined ? { ok: true, value: rendered } : { ok: false, missing };
}

/** The argument at `args.<path>`, own properties only: `{{args.constructor}}` names an argument, never Object's constructor. */
function argumentAt(args: JsonValue, path: string): JsonValue | undefined {
  let current: JsonValue | undefined = args;
  for (const segment of path.split('.').slice(1)) {
    current =
      typeof current === 'object' && current !== null && Object.hasOwn(current, segment)
        ? Array.isArray(current)
          ? current[Number(segment)]
          : current[segment]
        : undefined;
    if (current === undefined) break;
  }
  return current;
}

/** Text with each placeholder written in (strings as they are, other values as JSON); undefined when one has no value. */
function fillText(
  text: string,
  pattern: RegExp,
  lookup: (name: string) => JsonValue | undefined,
): string | undefined {
  let unfilled = false;
  const filled = text.replace(pattern, (match, name: string) => {
    const found = lookup(name);
    if (found === undefined) {
      unfilled = true;
      return match;
    }
    return typeof found === 'string' ? found : JSON.stringify(found);
  });
  return unfilled ? undefined : filled;
}

/** A state key as a call names it: `order:{{args.order_id}}` → `order:A-17`; undefined when the call lacks the argument. */
export function renderStateKey(
  key: string,
  call: Pick<TemplateSource, 'args'>,
): string | undefined {
  return fillText(key, argumentPlaceholder, (path) => argumentAt(call.args, path));
}

/** The argument paths a result's templates read (`account_id`, `address.city`), for load-time checks. */
export function templateArguments(value: JsonValue | undefined): string[] {
  const paths: string[] = [];
  const walk = (node: JsonValue | undefined): void => {
    if (typeof node === 'string') {
      for (const match of node.matchAll(argumentPlaceholder))
        paths.push((match[1] as string).slice('args.'.length));
    } else if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null) Object.values(node).forEach(walk);
  };
  walk(value);
  return paths;
}
