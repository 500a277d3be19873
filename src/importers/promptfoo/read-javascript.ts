import { parse, type Node } from 'acorn';

/** What a promptfoo `javascript` assertion reads, found by parsing it (never by running it). */
export type JavascriptReading =
  /** It reads nothing but `output` (and plain built-ins): a code judge can give it the same `output`. */
  | { readonly kind: 'output-only'; readonly body: string }
  /** It reads other names (`context`, `metadata`, `require`, …) calltape cannot give it. */
  | { readonly kind: 'reads-more'; readonly names: readonly string[] }
  | { readonly kind: 'unparsable'; readonly message: string };

/** Built-ins a check of the output may use: they compute, they reach nothing outside. */
const builtIns = new Set([
  'JSON',
  'Array',
  'Object',
  'Number',
  'String',
  'Boolean',
  'Math',
  'Set',
  'Map',
  'RegExp',
  'Date',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'undefined',
  'NaN',
  'Infinity',
]);

/**
 * Reads a promptfoo `javascript` assertion's code as promptfoo runs it: a single line without
 * `return` is an expression (`output[0].function.name === 'x'`), anything else a function body
 * of `(output, context)`. The identifiers it reads that it does not declare itself decide
 * whether calltape can run it on a call's output alone.
 */
export function readJavascript(code: string): JavascriptReading {
  const body = isExpression(code) ? `return (${code});` : code;
  let program: Node;
  try {
    program = parse(`(function (output, context) {\n${body}\n})`, {
      ecmaVersion: 'latest',
      sourceType: 'script',
    });
  } catch (error) {
    return { kind: 'unparsable', message: (error as Error).message };
  }
  // The code must stay inside the function it is put in: `}); other(); (function () {` would not.
  if (!isOneFunction(program))
    return { kind: 'unparsable', message: 'it closes the function promptfoo puts it in' };
  const { declared, read } = identifiers(program);
  const outside = [...read].filter(
    (name) => name !== 'output' && !declared.has(name) && !builtIns.has(name),
  );
  // `context` is promptfoo's (vars, the provider's response, its metadata): calltape has no such thing.
  const more = [...(read.has('context') ? ['context'] : []), ...outside].sort();
  if (more.length > 0) return { kind: 'reads-more', names: more };
  return { kind: 'output-only', body };
}

function isOneFunction(program: Node): boolean {
  const body = (program as unknown as { body: { type: string; expression?: { type: string } }[] })
    .body;
  return (
    body.length === 1 &&
    body[0]?.type === 'ExpressionStatement' &&
    body[0].expression?.type === 'FunctionExpression'
  );
}

function isExpression(code: string): boolean {
  const trimmed = code.trim();
  return !trimmed.includes('\n') && !/\breturn\b/.test(trimmed);
}

/** Names declared anywhere in the code (parameters, variables, functions) and names it reads. */
function identifiers(root: Node): { declared: Set<string>; read: Set<string> } {
  const declared = new Set<string>(['output', 'context', 'arguments']);
  const read = new Set<string>();
  const visit = (
    value: unknown,
    parent: Fields | undefined,
    key: string,
    declaring: boolean,
  ): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, parent, key, declaring);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as Fields;
    if (typeof node['type'] !== 'string') return;
    if (node['type'] === 'Identifier') {
      if (isPropertyName(parent, key)) return;
      (declaring ? declared : read).add(node['name'] as string);
      return;
    }
    for (const [child, inner] of Object.entries(node))
      if (child !== 'type' && child !== 'start' && child !== 'end')
        visit(inner, node, child, declares(node, child, declaring));
  };
  visit(root, undefined, '', false);
  return { declared, read };
}

type Fields = Record<string, unknown>;

/** `a.b` and `{ b: … }` name a property, not a variable (unless computed: `a[b]`). */
function isPropertyName(parent: Fields | undefined, key: string): boolean {
  if (!parent || (key !== 'key' && key !== 'property')) return false;
  if (parent['type'] === 'MemberExpression')
    return key === 'property' && parent['computed'] !== true;
  if (
    parent['type'] === 'Property' ||
    parent['type'] === 'MethodDefinition' ||
    parent['type'] === 'PropertyDefinition'
  )
    return key === 'key' && parent['computed'] !== true && parent['shorthand'] !== true;
  return false;
}

/** Whether the identifiers under `node[child]` are declared there (a binding pattern) rather than read. */
function declares(node: Fields, child: string, declaring: boolean): boolean {
  switch (node['type']) {
    case 'VariableDeclarator':
      return child === 'id';
    case 'FunctionDeclaration':
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
    case 'ClassDeclaration':
      return child === 'id' || child === 'params';
    case 'CatchClause':
      return child === 'param';
    // Inside a binding pattern, defaults are read (`{ a = b }` reads b).
    case 'AssignmentPattern':
      return child === 'left' ? declaring : false;
    case 'Property':
      return child === 'value' ? declaring : false;
    case 'ObjectPattern':
    case 'ArrayPattern':
    case 'RestElement':
      return declaring;
    default:
      return false;
  }
}
