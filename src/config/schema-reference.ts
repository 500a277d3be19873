/**
 * Renders the configuration reference (docs/reference/configuration.md) from the JSON Schemas in
 * config/, so the reference can never say something the validator does not enforce. Pure: schema
 * documents in, Markdown out; `scripts/generate-config-reference.ts` writes the file and a test
 * fails when the committed file is stale.
 */

/** The part of a JSON Schema the reference reads. */
export interface SchemaNode {
  readonly title?: string;
  readonly description?: string;
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly default?: unknown;
  readonly format?: string;
  readonly $ref?: string;
  readonly properties?: { readonly [name: string]: SchemaNode };
  readonly required?: readonly string[];
  readonly items?: SchemaNode;
  readonly additionalProperties?: boolean | SchemaNode;
  readonly oneOf?: readonly SchemaNode[];
  readonly anyOf?: readonly SchemaNode[];
  readonly $defs?: { readonly [name: string]: SchemaNode };
}

/** One schema file to document: its file name and parsed contents. */
export interface SchemaFile {
  readonly file: string;
  readonly schema: SchemaNode;
  /** Environment variables that set fields of this file, by dotted field path. */
  readonly env?: ReadonlyMap<string, string>;
}

export function renderSchemaReference(files: readonly SchemaFile[]): string {
  const intro = [
    '# Configuration reference',
    '',
    '<!-- Generated from config/*.schema.json by `npm run docs:config`; do not edit by hand (a test fails when this file is stale). -->',
    '',
    'Every file calltape reads is checked against its JSON Schema before anything starts; a mistake exits 2 naming the file, the field, what was expected and the value given. Add `"$schema"` (JSON) or `# yaml-language-server: $schema=…` (YAML) pointing at the schema for editor completion. Relative paths in a file resolve against that file\'s folder.',
    '',
    ...files.map(
      (entry) =>
        `- [${entry.schema.title ?? entry.file}](#${anchor(entry.file)}) — \`config/${entry.file}\``,
    ),
    '',
  ];
  return `${[...intro, ...files.flatMap(renderFile)]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

function renderFile(entry: SchemaFile): string[] {
  const { schema, file } = entry;
  const lines = [
    `## ${file}`,
    '',
    `**${schema.title ?? file}.** ${oneLine(schema.description ?? '')}`,
    '',
  ];
  lines.push(...table(rows(schema, '', entry), entry.env !== undefined));
  for (const [name, definition] of Object.entries(schema.$defs ?? {})) {
    lines.push(`### ${file} · \`${name}\``, '', oneLine(definition.description ?? ''), '');
    const own = rows(definition, '', entry);
    lines.push(
      ...(own.length > 0 ? table(own, false) : [`Type: ${typeOf(definition, file)}.`, '']),
    );
  }
  return lines;
}

interface Row {
  readonly field: string;
  readonly type: string;
  readonly required: boolean;
  readonly defaultValue: string;
  readonly env: string;
  readonly description: string;
}

/** A row per property, nested objects and arrays of objects flattened into dotted paths. */
function rows(node: SchemaNode, prefix: string, entry: SchemaFile): Row[] {
  const required = new Set(node.required ?? []);
  return Object.entries(node.properties ?? {}).flatMap(([name, child]) => {
    const field = `${prefix}${name}`;
    const own: Row = {
      field,
      type: typeOf(child, entry.file),
      required: required.has(name),
      defaultValue: child.default === undefined ? '' : `\`${JSON.stringify(child.default)}\``,
      env: entry.env?.get(field) ?? '',
      description: oneLine(child.description ?? ''),
    };
    const nested = child.properties
      ? rows(child, `${field}.`, entry)
      : child.items?.properties
        ? rows(child.items, `${field}[].`, entry)
        : [];
    return [own, ...nested];
  });
}

function table(entries: readonly Row[], withEnv: boolean): string[] {
  if (entries.length === 0) return [];
  const head = withEnv
    ? '| field | type | default | env | meaning |\n| --- | --- | --- | --- | --- |'
    : '| field | type | default | meaning |\n| --- | --- | --- | --- |';
  return [
    head,
    ...entries.map(
      (row) =>
        `| \`${row.field}\`${row.required ? ' (required)' : ''} | ${row.type} | ${row.defaultValue} |${withEnv ? ` ${row.env ? `\`${row.env}\`` : ''} |` : ''} ${row.description} |`,
    ),
    '',
  ];
}

/** A short type: `string`, `"a" \| "b"`, `integer ≥ …`, a link to a definition, or the branches of a oneOf. */
function typeOf(node: SchemaNode, file: string): string {
  if (node.$ref !== undefined) {
    const local = /^#\/\$defs\/([^/]+)$/.exec(node.$ref);
    if (local?.[1]) return `[${local[1]}](#${anchor(`${file} · ${local[1]}`)})`;
    const external = /^([\w.-]+\.schema\.json)#\/(?:properties|\$defs)\/([^/]+)$/.exec(node.$ref);
    return external?.[1] && external[2]
      ? `see [${external[1]}](#${anchor(external[1])}) \`${external[2]}\``
      : `\`${node.$ref}\``;
  }
  if (node.const !== undefined) return `\`${JSON.stringify(node.const)}\``;
  if (node.enum) return node.enum.map((value) => `\`${JSON.stringify(value)}\``).join(' \\| ');
  const branches = node.oneOf ?? node.anyOf;
  if (branches && !node.type) return branches.map((branch) => typeOf(branch, file)).join(' or ');
  const types =
    node.type === undefined
      ? ['any']
      : typeof node.type === 'string'
        ? [node.type]
        : [...node.type];
  return types
    .map((type) =>
      type === 'array' && node.items
        ? `array of ${typeOf(node.items, file)}`
        : type === 'string' && node.format
          ? `string (${node.format})`
          : type,
    )
    .join(' or ');
}

function oneLine(text: string): string {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

/** GitHub's heading anchors: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}
