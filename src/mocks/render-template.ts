import type { JsonValue } from '../trace/trace.js';

const placeholder = /\{\{\s*(args(?:\.[^\s.}]+)+|call\.name|call\.id)\s*\}\}/g;
const whole = /^\{\{\s*(args(?:\.[^\s.}]+)+|call\.name|call\.id)\s*\}\}$/;

export type Rendered =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly missing: string };

/**
 * Fills `{{args.<path>}}`, `{{call.name}}` and `{{call.id}}` in a result. A string that is only a
 * placeholder takes the argument's value with its type (`"{{args.amount}}"` → 20); inside text,
 * the value is written as JSON (strings as they are). An argument the call lacks is reported,
 * never rendered as empty.
 */
export function renderTemplate(
  value: JsonValue,
  call: { readonly name: string; readonly id: string; readonly args: JsonValue },
): Rendered {
  let missing: string | undefined;
  const lookup = (reference: string): JsonValue | undefined => {
    if (reference === 'call.name') return call.name;
    if (reference === 'call.id') return call.id;
    let current: JsonValue | undefined = call.args;
    for (const segment of reference.split('.').slice(1)) {
      // Own properties only: `{{args.constructor}}` names an argument, never Object's constructor.
      current =
        typeof current === 'object' && current !== null && Object.hasOwn(current, segment)
          ? Array.isArray(current)
            ? current[Number(segment)]
            : current[segment]
          : undefined;
      if (current === undefined) break;
    }
    if (current === undefined) missing ??= reference.slice('args.'.length);
    return current;
  };
  const walk = (node: JsonValue): JsonValue => {
    if (typeof node === 'string') {
      if (!node.includes('{{')) return node;
      const only = whole.exec(node);
      if (only) return lookup(only[1] as string) ?? node;
      return node.replace(placeholder, (match, reference: string) => {
        const found = lookup(reference);
        return found === undefined
          ? match
          : typeof found === 'string'
            ? found
            : JSON.stringify(found);
      });
    }
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node === 'object' && node !== null)
      return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, walk(item)]));
    return node;
  };
  const rendered = walk(value);
  return missing === undefined ? { ok: true, value: rendered } : { ok: false, missing };
}

/** The argument paths a result's templates read (`account_id`, `address.city`), for load-time checks. */
export function templateArguments(value: JsonValue | undefined): string[] {
  const paths: string[] = [];
  const walk = (node: JsonValue | undefined): void => {
    if (typeof node === 'string') {
      for (const match of node.matchAll(placeholder))
        if ((match[1] as string).startsWith('args.'))
          paths.push((match[1] as string).slice('args.'.length));
    } else if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null) Object.values(node).forEach(walk);
  };
  walk(value);
  return paths;
}
