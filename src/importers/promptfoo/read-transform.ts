/** What a promptfoo `transform` picks from an OpenAI tool-call output. */
export type TransformTarget =
  /** `output[0].function.name`: the first call's name. */
  | { readonly kind: 'name' }
  /** `JSON.parse(output[0].function.arguments)`: the first call's whole arguments. */
  | { readonly kind: 'arguments' }
  /** `JSON.parse(output[0].function.arguments).location` (or `['location']`): one argument. */
  | { readonly kind: 'argument'; readonly key: string }
  | { readonly kind: 'other' };

const name = /^output\[0\]\.function\.name$/;
const args =
  /^JSON\.parse\(output\[0\]\.function\.arguments\)(?:\.([A-Za-z_$][\w$]*)|\[(['"])([^'"\\]+)\2\])?$/;

/**
 * The part of the first tool call a transform picks, in the forms promptfoo's own tool-call
 * examples write (examples/openai-tools-call); anything else is `other`.
 */
export function readTransform(transform: string): TransformTarget {
  // Spaces go, except inside quotes: `['new seat']` names an argument with a space.
  const code = transform
    .replace(/(['"])(?:\\.|(?!\1)[^\\])*\1|\s+/g, (part) => (/^\s/.test(part) ? '' : part))
    .replace(/;$/, '');
  if (name.test(code)) return { kind: 'name' };
  const match = args.exec(code);
  if (!match) return { kind: 'other' };
  const key = match[1] ?? match[3];
  return key === undefined ? { kind: 'arguments' } : { kind: 'argument', key };
}
