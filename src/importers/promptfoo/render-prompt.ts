import nunjucks from 'nunjucks';
import { CalltapeError } from '../../errors.js';
import type { JsonValue } from '../../trace/trace.js';

// No loader: a template cannot include or import files, only render the text it is given.
const environment = new nunjucks.Environment(null, { autoescape: false });

/** Template tags (`{{ … }}`, `{% … %}`) and the property names that would reach past the vars into JavaScript itself. */
const tags = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;
const escapes = /\b(constructor|prototype|__defineGetter__|__defineSetter__|__lookupGetter__)\b/;

/**
 * A promptfoo prompt rendered with its test's vars by the real Nunjucks, as promptfoo renders
 * it. Nunjucks is not a sandbox (`{{ x.constructor.constructor("…")() }}` runs code), and a
 * config may come from anyone: a tag that names such a property is refused, naming `where`.
 */
export function renderPrompt(
  template: string,
  vars: ReadonlyMap<string, JsonValue>,
  where: string,
): string {
  for (const tag of template.match(tags) ?? []) {
    const found = escapes.exec(tag);
    if (found)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${where}: the template names "${found[1] ?? ''}", which reaches JavaScript itself; calltape does not render it`,
      );
  }
  // Vars come from input: an object without a prototype, so a var named __proto__ is a var.
  const context: Record<string, JsonValue> = Object.create(null) as Record<string, JsonValue>;
  for (const [name, value] of vars) context[name] = value;
  try {
    return environment.renderString(template, context);
  } catch (error) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${where}: Nunjucks cannot render it: ${(error as Error).message.split('\n').at(-1)?.trim() ?? ''}`,
    );
  }
}
