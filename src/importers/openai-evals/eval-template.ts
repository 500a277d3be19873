import type { JsonValue } from '../../trace/trace.js';
import { isJsonObject, own } from '../source-json.js';

/** A template that is exactly one tool-call field of the sample: `{{ sample.output_tools[0].function.name }}`. */
export interface ToolReference {
  /** Which call of the sample's `output_tools` (0 is the first). */
  readonly index: number;
  readonly field: 'name' | 'arguments';
}

const placeholder = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The tool-call field a template reads, when the whole template is that one reference. */
export function toolReference(template: string): ToolReference | undefined {
  const match =
    /^\s*\{\{\s*sample\.output_tools\[(\d+)\]\.function\.(name|arguments)\s*\}\}\s*$/.exec(
      template,
    );
  if (!match?.[1] || !match[2]) return undefined;
  return { index: Number(match[1]), field: match[2] as ToolReference['field'] };
}

/** Whether the template reads the sample (the model's answer) anywhere. */
export function readsSample(template: string): boolean {
  return [...template.matchAll(placeholder)].some((match) => /^sample\b/.test(match[1] ?? ''));
}

/** What rendering a template for one item gave: the text, or the item fields it lacked. */
export type Rendered =
  { readonly text: string; readonly missing?: undefined } | { readonly missing: string };

/**
 * Renders `{{item.path}}` placeholders (dotted keys, `[n]` indices) from one item; a text value is
 * inserted as is, any other value as JSON, as the Evals templating does. Placeholders of other
 * namespaces (`sample.…`) are replaced by `sample`'s words when given, else left as written. Keys
 * are read as own properties, so `{{item.__proto__}}` is a field like any other.
 */
export function renderTemplate(
  template: string,
  item: JsonValue,
  sample?: (expression: string) => string,
): Rendered {
  let missing: string | undefined;
  const text = template.replace(placeholder, (whole, expression: string) => {
    if (!/^item\b/.test(expression))
      return sample && /^sample\b/.test(expression) ? sample(expression) : whole;
    const value = lookup(item, expression.slice('item'.length));
    if (value === undefined) {
      missing ??= expression;
      return whole;
    }
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
  return missing === undefined ? { text } : { missing };
}

/** `.a.b[0]` in a value; undefined when any step is absent. */
function lookup(value: JsonValue, path: string): JsonValue | undefined {
  if (!/^(?:\.[^.[\]]+|\[\d+\])*$/.test(path)) return undefined;
  let current: JsonValue | undefined = value;
  for (const step of path.matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)) {
    if (current === undefined) return undefined;
    if (step[1] !== undefined) current = isJsonObject(current) ? own(current, step[1]) : undefined;
    else current = Array.isArray(current) ? current[Number(step[2])] : undefined;
  }
  return current;
}
